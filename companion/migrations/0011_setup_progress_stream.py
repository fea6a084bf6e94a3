"""The setup's ticks join the live-table engine (issue 21): each progress row gets the number that names it to the
engine (companion.models.setup_progress.stream_of its key)."""

import hashlib

from django.db import migrations, models


def _fill(apps, schema_editor):  # type: ignore[no-untyped-def]
    rows = apps.get_model("companion", "SetupProgress").objects.all()
    for row in rows:
        row.stream = int.from_bytes(hashlib.blake2b(row.key.encode(), digest_size=8).digest(), "big") & (2**63 - 1)
        row.save(update_fields=["stream"])


class Migration(migrations.Migration):
    dependencies = [("companion", "0010_result_times")]

    operations = [
        migrations.AddField(
            model_name="setupprogress", name="stream", field=models.BigIntegerField(null=True)
        ),
        migrations.RunPython(_fill, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="setupprogress", name="stream", field=models.BigIntegerField(unique=True)
        ),
    ]
