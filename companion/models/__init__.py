"""Models of the companion, one module per feature; imported here so Django finds them."""

from companion.models.games import Change, Game, Seat  # noqa: F401  (issue 5: tracked games)
from companion.models.live import Mutation  # noqa: F401  (issue 21: writes applied once)
from companion.models.osaka import OsakaEvent, OsakaGame, OsakaSeat  # noqa: F401  (issue 15: Traders of Osaka)
from companion.models.results import Group, Result  # noqa: F401  (issue 14: results and groups)
from companion.models.scoresheets import ScoreSheet  # noqa: F401  (issue 4: scoring walk-through)
from companion.models.setup_progress import SetupProgress  # noqa: F401  (issue 3: setup checklist ticks)
