"""Trust (issue 10): a score sheet gets a view-only token, a game links its sheet instead of storing its edit URL,
and the setup checklist's ticks are keyed by an unguessable table token, never by the seed alone."""

import re
import secrets

from django.db import migrations, models

import companion.models.scoresheets


def give_view_tokens(apps, schema_editor):
    ScoreSheet = apps.get_model("companion", "ScoreSheet")
    for sheet in ScoreSheet.objects.filter(view_token__isnull=True).only("pk"):
        ScoreSheet.objects.filter(pk=sheet.pk).update(view_token=secrets.token_urlsafe(18))


def link_sheets(apps, schema_editor):
    Game = apps.get_model("companion", "Game")
    ScoreSheet = apps.get_model("companion", "ScoreSheet")
    for game in Game.objects.exclude(scoresheet_url=""):
        found = re.match(r"^/score/([A-Za-z0-9_-]{16,64})/", game.scoresheet_url)
        sheet = ScoreSheet.objects.filter(token=found[1]).first() if found else None
        if sheet is not None:
            Game.objects.filter(pk=game.pk).update(scoresheet=sheet)


def unlink_sheets(apps, schema_editor):
    Game = apps.get_model("companion", "Game")
    for game in Game.objects.exclude(scoresheet=None).select_related("scoresheet"):
        url = f"/score/{game.scoresheet.token}/track/"
        Game.objects.filter(pk=game.pk).update(scoresheet_url=url)


def forget_seed_ticks(apps, schema_editor):
    """Ticks saved under a seed alone could be changed by anyone who saw the seed: no table token reaches them."""
    apps.get_model("companion", "SetupProgress").objects.exclude(key__contains="|").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("companion", "0003_setup_progress"),
    ]

    operations = [
        migrations.AddField(
            model_name="scoresheet",
            name="view_token",
            field=models.CharField(editable=False, max_length=64, null=True),
        ),
        migrations.RunPython(give_view_tokens, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="scoresheet",
            name="view_token",
            field=models.CharField(
                default=companion.models.scoresheets.new_token, editable=False, max_length=64, unique=True
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="scoresheet",
            field=models.OneToOneField(
                blank=True,
                null=True,
                on_delete=models.deletion.SET_NULL,
                related_name="game",
                to="companion.scoresheet",
            ),
        ),
        migrations.RunPython(link_sheets, unlink_sheets),
        migrations.RemoveField(model_name="game", name="scoresheet_url"),
        migrations.RunPython(forget_seed_ticks, migrations.RunPython.noop),
    ]
