"""Buildings, tokens, retirement tokens, starting tiles, personalities and boats, from the rulebooks' appendices.

Base game: ``iki-rulebook.txt`` Appendix 2 (buildings) and 3 (tokens). Akebono: ``iki-akebono-rulebook.txt``
Appendices 2-5. Ids: RULINGS R1. End-game values: RULINGS R6-R10. Base building costs are printed only as icons,
so they are None, except the Inn's, which two examples print ("she spends 1 *Koban* and 1 wood to build the Inn",
"13TH ROUND: NEW YEAR'S DAY" and "Construction site"); Akebono costs are printed and recorded. A pipe's
``firefighting_gain`` / ``trade_gain`` is what its printed immediate effect moves a marker up (RULINGS R13).
"""

from scoring.components import (
    Boat,
    BoatToken,
    Building,
    BuildingRule,
    Expansion,
    Personality,
    PersonalityRule,
    RetirementToken,
    Season,
    StartingTile,
    TobaccoRule,
    Token,
    TokenKind,
)

B = Expansion.BASE
A = Expansion.AKEBONO
R = BuildingRule

BUILDINGS: tuple[Building, ...] = (
    Building("farmhouse", "Farmhouse", B, R.FIXED, 2, None, True, None,
             "At the end of each season, gain 2 IKI for each Kobun you fed.", "Gain 2 IKI."),
    Building("fire-watchtower", "Fire Watchtower", B, R.FIXED, 3, None, True, None,
             "When you recruit a Character with a Hiring bonus that makes you move your marker up the "
             "Firefighting track, gain 3 IKI.", "Gain 3 IKI."),
    Building("imperial-villa", "Imperial Villa", B, R.FIXED, 4, None, True, None,
             "At the end of each season, gain 2 mons for each character of the type you recruited the most "
             "(including your retired characters, if any).", "Gain 4 IKI."),
    Building("inn", "Inn", B, R.FIXED, 12, None, False, "1 koban + 1 wood", None, "Gain 12 IKI."),
    Building("kabuki-theater", "Kabuki Theater", B, R.FIXED, 26, None, False, None, None, "Gain 26 IKI."),
    Building("merchant-house", "Merchant House", B, R.PER_SANDAL, 3, 30, False, None, None,
             "Gain 3 IKI for each sandal you own at the end of the game (max. 30 IKI)."),
    Building("restaurant", "Restaurant", B, R.FISH_LINE, 1, None, False, None, None,
             "Score as much IKI as the total value of your Fishes."),
    Building("shrine", "Shrine", B, R.FIXED, 22, None, False, None, None, "Gain 22 IKI."),
    Building("storehouse", "Storehouse", B, R.PER_RICE, 4, 32, False, None, None,
             "Gain 4 IKI for each rice you own at the end of the game (max. 32 IKI)."),
    Building("well", "Well", B, R.PER_FIREFIGHTING, 2, None, False, None, None,
             "Gain 2 IKI for each space you reached on the Firefighting track."),
    Building("inn-for-sailors", "Inn for Sailors", A, R.PER_BOAT, 2, None, True, "1 wood + 1 rice",
             "Each time you activate a Boat, you may also activate another, different Boat.",
             "Gain 2 IKI for each of your Boats."),
    Building("kimono-shop", "Kimono Shop", A, R.PER_TYPE, 4, None, False, "1 wood + 1 sandal + 2 kobans", None,
             "Gain 4 IKI for each type of Character you hired."),
    Building("picture-book-shop", "Picture Book Shop", A, R.PER_TOKEN, 2, None, False,
             "1 wood + 1 koban + 4 mons", None, "Gain 2 IKI for each of your Fish/Pipe/Tobacco tokens."),
    Building("pub-izakaya", "Pub (Izakaya)", A, R.PER_LARGEST_COLUMN, 5, None, False,
             "1 wood + 1 rice + 1 Fish token", None,
             "Gain 5 IKI for each Character of the type you hired the most."),
    Building("public-bathhouse", "Public Bathhouse", A, R.FIXED, 2, None, True, "2 wood + 1 sandal",
             "Double the IKI you gain for the Nagaya Harmony bonus.", "Gain 2 IKI."),
    Building("private-school", "Private School", A, R.FIXED, 6, None, False, "2 sandals + 2 mons",
             "Immediate: increase the experience of all your Kobuns by one.", "Gain 6 IKI."),
    Building("storytellers-theater", "Storyteller's Theater", A, R.PER_PERSONALITY, 4, 16, False,
             "1 Pipe token + 1 koban", None, "Gain 4 IKI for each Personality you met (max. 16 IKI)."),
    Building("tea-house", "Tea House", A, R.FIXED, 2, None, True, "1 wood + 2 sandals",
             "Each time your Oyakata reaches or passes the Tea House, gain 1 rice and 2 IKI.", "Gain 2 IKI."),
    Building("temple", "Temple", A, R.FIXED, 30, None, False, "1 wood + 3 kobans", None, "Gain 30 IKI."),
    Building("wholesale-shipping-agency", "Wholesale Shipping Agency", A, R.PER_TRADE, 2, None, False,
             "1 wood + 4 sandals", None, "Gain 2 IKI for each space you reached on the Trade track."),
)  # fmt: skip

F, P, T = TokenKind.FISH, TokenKind.PIPE, TokenKind.TOBACCO
SPRING, SUMMER, AUTUMN, WINTER = Season.SPRING, Season.SUMMER, Season.AUTUMN, Season.WINTER
TR = TobaccoRule

TOKENS: tuple[Token, ...] = (
    # Base fish (RULINGS R1/R6): one plain and one bonus fish per season; the bonus is the dearer one.
    Token("fish-spring", "Spring fish", F, SPRING, B, "No end-game bonus."),
    Token("fish-spring-bonus", "Spring fish (+1)", F, SPRING, B, "+1 IKI at the end (Fish and Restaurant).", 1),
    Token("fish-summer", "Summer fish", F, SUMMER, B, "No end-game bonus."),
    Token("fish-summer-bonus", "Summer fish (+7)", F, SUMMER, B, "+7 IKI at the end (Fish and Restaurant).", 7),
    Token("fish-autumn", "Autumn fish", F, AUTUMN, B, "No end-game bonus."),
    Token("fish-autumn-bonus", "Autumn fish (+1)", F, AUTUMN, B, "+1 IKI at the end (Fish and Restaurant).", 1),
    Token("fish-winter", "Winter fish", F, WINTER, B, "No end-game bonus."),
    Token("fish-winter-bonus", "Winter fish (+7)", F, WINTER, B, "+7 IKI at the end (Fish and Restaurant).", 7),
    # Base pipes (Appendix 3 order): immediate effects only.
    Token("pipe-spring-1", "Spring pipe 1", P, SPRING, B, "Move your marker one space up the Firefighting track.",
          firefighting_gain=1),
    Token("pipe-spring-2", "Spring pipe 2", P, SPRING, B, "Move your marker one space up the Firefighting track.",
          firefighting_gain=1),
    Token("pipe-summer-1", "Summer pipe 1", P, SUMMER, B, "Gain 1 rice."),
    Token("pipe-summer-2", "Summer pipe 2", P, SUMMER, B, "Gain 2 sandals."),
    Token("pipe-autumn-1", "Autumn pipe 1", P, AUTUMN, B, "Move your marker one space up the Firefighting track.",
          firefighting_gain=1),
    Token("pipe-autumn-2", "Autumn pipe 2", P, AUTUMN, B, "Move your marker two spaces up the Firefighting track.",
          firefighting_gain=2),
    Token("pipe-winter-1", "Winter pipe 1", P, WINTER, B, "Increase the experience of one of your Kobun by one."),
    Token("pipe-winter-2", "Winter pipe 2", P, WINTER, B, "Gain 1 Koban."),
    # Base tobacco (Appendix 3 order, RULINGS R7).
    Token("tobacco-spring-1", "Spring tobacco (2)", T, SPRING, B, "Score 2 IKI.", 2, TR.FIXED),
    Token("tobacco-spring-2", "Spring tobacco (3)", T, SPRING, B, "Score 3 IKI.", 3, TR.FIXED),
    Token("tobacco-summer-1", "Summer tobacco (4)", T, SUMMER, B, "Score 4 IKI.", 4, TR.FIXED),
    Token("tobacco-summer-2", "Summer tobacco (firefighting)", T, SUMMER, B,
          "Score 1 IKI for each two spaces you reached on the Firefighting track.", 0, TR.HALF_FIREFIGHTING),
    Token("tobacco-autumn-1", "Autumn tobacco (types)", T, AUTUMN, B,
          "Score 1 IKI for each different character type you hired.", 0, TR.DISTINCT_TYPES),
    Token("tobacco-autumn-2", "Autumn tobacco (largest type)", T, AUTUMN, B,
          "Score 1 IKI for each character of the type you hired the most.", 0, TR.LARGEST_COLUMN),
    Token("tobacco-winter-1", "Winter tobacco (5)", T, WINTER, B, "Score 5 IKI.", 5, TR.FIXED),
    Token("tobacco-winter-2", "Winter tobacco (mons)", T, WINTER, B,
          "Score 1 IKI for each remaining 4 mons.", 0, TR.QUARTER_MON),
    # Akebono (Appendix 5): one of each kind per season, plus two special tokens.
    Token("fish-spring-akebono", "Akebono spring fish (-2)", F, SPRING, A,
          "Lose 2 IKI at the end, and 2 more for Restaurant scoring.", -2),
    Token("fish-summer-akebono", "Akebono summer fish", F, SUMMER, A,
          "Immediate: gain 4 IKI (already on the score track)."),
    Token("fish-autumn-akebono", "Akebono autumn fish", F, AUTUMN, A,
          "Immediate: gain 5 IKI (already on the score track)."),
    Token("fish-winter-akebono", "Akebono winter fish (+4)", F, WINTER, A,
          "Gain 4 IKI at the end, and 4 more for Restaurant scoring.", 4),
    Token("fish-fisherman", "Fisherman token", F, None, A,
          "Counts as a Fish and earns 1 additional IKI at the end and for the Restaurant.", 1, source="fisherman"),
    Token("pipe-spring-akebono", "Akebono spring pipe", P, SPRING, A, "Immediate: build a Boat or a Building."),
    Token("pipe-summer-akebono", "Akebono summer pipe", P, SUMMER, A,
          "Immediate: move your marker up 1 space on both the Firefighting and the Trade tracks.",
          firefighting_gain=1, trade_gain=1),
    Token("pipe-autumn-akebono", "Akebono autumn pipe", P, AUTUMN, A,
          "Immediate: move your marker up 1 space on the Trade track.", trade_gain=1),
    Token("pipe-winter-akebono", "Akebono winter pipe", P, WINTER, A,
          "Immediate: activate a Boat. If you activate an opponent's Boat, its owner moves their Trade marker one "
          "space up on the Trade track."),
    Token("tobacco-spring-akebono", "Akebono spring tobacco (personalities)", T, SPRING, A,
          "Score 1 IKI for each Personality you met.", 0, TR.PERSONALITIES),
    Token("tobacco-summer-akebono", "Akebono summer tobacco (trade)", T, SUMMER, A,
          "Score 1 IKI for every two spaces you reached on the Trade track.", 0, TR.HALF_TRADE),
    Token("tobacco-autumn-akebono", "Akebono autumn tobacco (kobans)", T, AUTUMN, A,
          "Score 1 IKI for each of your Kobans.", 0, TR.KOBANS),
    Token("tobacco-winter-akebono", "Akebono winter tobacco (6)", T, WINTER, A, "Score 6 IKI.", 6, TR.FIXED),
    Token("tobacco-policeman", "Policeman token", T, None, A,
          "Counts as a Tobacco Pouch: 1 IKI for each Special Character you hired.", 0, TR.SPECIAL_CHARACTERS,
          source="policeman"),
)  # fmt: skip

RETIREMENT_TOKENS: tuple[RetirementToken, ...] = (
    RetirementToken("hire-discount", "Hire -1 (Monk)", B, ("monk",), 1,
                    "Recruiting characters costs you 1 mon less."),
    RetirementToken("extra-move", "Move +1 (Ox Cart)", B, ("ox-cart",), 1,
                    "You may move your Oyakata one additional space during the Action phase."),
    RetirementToken("fire-protection", "Avoid a Fire (Yamabushi, Shrine Maiden)", B, ("yamabushi", "shrine-maiden"),
                    2, "Once per game, discard to save one of your characters from a Fire."),
    RetirementToken("puppeteer", "Joker (Puppeteer)", B, ("puppeteer",), 1,
                    "At the end of the game, choose which type the Puppeteer is."),
    # Two Doctor tokens (inferred): the Doctor's retirement and Genpaku Sugita both give one.
    RetirementToken("doctor", "Doctor", A, ("doctor", "genpaku-sugita"), 2,
                    "Discard to retire a character that would leave play because of a Fire or a lack of rice."),
    RetirementToken("messenger", "Messenger (Express Messenger)", A, ("express-messenger",), 1,
                    "Discard to place your Oyakata on any space of the main street."),
    RetirementToken("owner", "Owner (Nagaya Owner)", A, ("nagaya-owner",), 1,
                    "When you Hire, discard to immediately hire another Character."),
)  # fmt: skip

STARTING_TILES: tuple[StartingTile, ...] = (
    StartingTile("tile-rice", "Rice tile", "Gain 1 rice."),
    StartingTile("tile-sandals", "Sandals tile", "Gain 2 sandals."),
    StartingTile("tile-wood", "Wood tile", "Gain 1 wood."),
    StartingTile("tile-trade", "Trade tile", "Move your marker up 1 space on the Trade track."),
    StartingTile("tile-shop-boat", "Shop boat tile",
                 "Build the Shop boat by paying its cost; you must move your marker one space on the Trade track."),
)  # fmt: skip

PR = PersonalityRule
PERSONALITIES: tuple[Personality, ...] = (
    Personality("juzaburo-tsutaya", "Jūzaburō Tsutaya", SPRING, "Publisher", "ongoing",
                "Each time you meet a Personality (including this one), gain 2 mons."),
    Personality("nezumi-kozo", "Nezumi Kozō", SPRING, "Thief", "ongoing",
                "Each time you do not Hire during phase B, gain 1 mon (Nezumi Kozō's ability works when using the "
                "1-4 space)."),
    Personality("sanyo-rai", "Sanyō Rai", SPRING, "Historian", "ongoing",
                "Each time one of your Characters retires, gain 1 mon."),
    Personality("ryotaku-maeno", "Ryōtaku Maeno", SPRING, "Rangakusha-Dutch Scholar, Doctor", "ongoing",
                "Each time you hire a Special Character, move your marker up 1 space on the Trade track."),
    Personality("tokunai-mogami", "Tokunai Mogami", SPRING, "Explorer", "ongoing",
                "Each time your Oyakata completes a cycle, gain 1 sandal. You may use it immediately to end your "
                "movement."),
    Personality("hiroshige-utagawa", "Hiroshige Utagawa", SUMMER, "Ukiyo-e Artist", "end game",
                "Gain 7 IKI if there are at least 3 Characters in the Artisan area of your player board.",
                PR.ARTISANS_AT_LEAST, 7, 3),
    Personality("katsushika-hokusai", "Katsushika Hokusai", SUMMER, "Artist", "immediate",
                "Move one of your Characters (with their Kobun) to an empty space for free (including a corner "
                "space). Then, you may activate its skill."),
    Personality("nanpo-ota", "Nanpo Ōta", SUMMER, "Writer, Poet", "immediate",
                "Hire a Character by spending 2 mons less. If you also control the Monk token, both discounts "
                "apply."),
    Personality("saiko-ema", "Saikō Ema", SUMMER, "Poet, Painter", "ongoing",
                "Your Buildings cannot be destroyed by a Fire. If your firefighting level is insufficient to stop "
                "it, your Buildings are protected, but the Fire continues to spread out."),
    Personality("shusaku-chiba", "Shūsaku Chiba", SUMMER, "Swordsman", "ongoing",
                "When placing a card (Building or Character) on a space with an extra cost, do not spend "
                "additional mons."),
    Personality("genpaku-sugita", "Genpaku Sugita", AUTUMN, "Doctor, Dutch scholar", "immediate",
                "Gain a Doctor token."),
    Personality("ikku-jippensha", "Ikku Jippensha", AUTUMN, "Fiction Writer", "end game",
                "Gain 6 IKI if you have 1 mon or less.", PR.MON_AT_MOST, 6, 1),
    Personality("philipp-franz-von-siebold", "Philipp Franz von Siebold", AUTUMN, "Physician, Botanist",
                "immediate", "Lose 4 IKI to gain 2 mons + 1 rice + 1 sandal + 1 wood."),
    Personality("ryokan", "Ryōkan", AUTUMN, "Monk, Poet", "end game",
                "Gain 6 IKI if your marker is last on the Firefighting track.", PR.LAST_IN_FIREFIGHTING, 6),
    Personality("tadataka-ino", "Tadataka Inō", AUTUMN, "Surveyor, Astronomer", "end game",
                "Gain 5 IKI if there are at least 8 Characters on your player board.",
                PR.CHARACTERS_AT_LEAST, 5, 8),
    Personality("gennai-hiraga", "Gennai Hiraga", WINTER, "Inventor", "end game",
                "Gain 5 IKI if you have at least 2 Pipes.", PR.PIPES_AT_LEAST, 5, 2),
    Personality("issa-kobayashi", "Issa Kobayashi", WINTER, "Haiku Poet", "end game",
                "Gain 5 IKI if you hired at least 2 New Characters.", PR.NEW_CHARACTERS_AT_LEAST, 5, 2),
    Personality("kazan-watanabe", "Kazan Watanabe", WINTER, "Karo Officer, Author, Painter, Poet", "end game",
                "Gain 2 IKI for each of your Boats and 2 IKI for each of your Buildings.",
                PR.BOATS_AND_BUILDINGS, 2),
    Personality("kokan-shiba", "Kōkan Shiba", WINTER, "Western Style Painter", "end game",
                "Gain 7 IKI if you have 1 Pipe + 1 Tobacco + 1 Fish + 1 Boat.", PR.FULL_SET, 7),
    Personality("oi-katsushika", "Ōi Katsushika", WINTER, "Ukiyo-e Artist", "immediate",
                "Retire one of your Characters."),
)  # fmt: skip

BOATS: tuple[Boat, ...] = (
    Boat("shop-boat", "Shop boat", 1, "3 mons", 1,
         "Spend the indicated mons to buy one Fish/Pipe/Tobacco token.", None),
    Boat("wandering-boat", "Wandering boat (Urourubune)", 2, "3 mons", 2,
         "Spend 1 wood to gain 2 rice.", "Spend 1 wood to gain 5 mons."),
    Boat("taxi-boat", "Taxi boat (Chokibune)", 3, "1 wood", 2,
         "Spend 1 mon to increase the experience of one of your Kobuns.",
         "Spend 3 mons to move your marker up 2 spaces on the Firefighting track."),
    Boat("carrying-ship", "Carrying ship (Yanebune)", 4, "2 wood", 2,
         "Spend 1 sandal to gain a Boat token.", "Spend 1 Pipe to gain 1 Koban."),
    Boat("ferry-boat", "Ferry boat (Watashibune)", 5, "2 wood", 2,
         "Hire a Character by paying its cost. The Monk token discount applies.",
         "Spend 1 rice to choose a Personality from the current season that is not on the Nihonbashi bridge action "
         "space. Meet this Personality."),
    Boat("houseboat", "Houseboat (Yakatabune)", 6, "2 wood + 2 mons", 3,
         "Spend 1 rice + 2 mons to gain 6 IKI.", "Spend 1 Koban to gain 8 IKI."),
    Boat("tea-boat", "Tea boat", None, None, 0,
         "Exchange 1 sandal for 1 rice, up to two times. The reverse is also possible.", None),
)  # fmt: skip

#: Akebono Appendix 5, "7 Boat tokens (x3)", in the appendix's order (ids: RULINGS R1).
BOAT_TOKENS: tuple[BoatToken, ...] = (
    BoatToken("boat-token-1", "Boat token 1",
              "During Phase A, if you placed your Ikizama meeple on the space 1-4 of the Ikizama track, you may "
              "spend this token (by returning it to the boat, making it available again) to choose to Gain Income "
              "or to Hire instead of gaining 1 mon."),
    BoatToken("boat-token-2", "Boat token 2",
              "During Phase B2 Moving Oyakata and doing business on a later turn, you may spend this token (by "
              "returning it to the boat, making it available again) to do business with any Character in the "
              "stalls you stopped at. You can do business before or after doing business with any Character here "
              "or with the shop. If you do business with an opponent's Character, increase their experience as "
              "usual."),
    BoatToken("boat-token-3", "Boat token 3",
              "During Phase B2 Moving Oyakata and doing business on a later turn, you may spend this token (by "
              "returning it to the boat, making it available again) to do business an additional time with the "
              "shop you stopped at."),
)  # fmt: skip
