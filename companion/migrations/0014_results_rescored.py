"""Results kept from a score sheet before the stack places were read (RULINGS R12): two players tied on one
firefighting space, their order given by the stack, were both kept in the same place, where the result page ranks
them apart. Version 0 is no sheet's (versions start at 1), so every such result is scored again from its sheet
when read (companion.services.results.current) and written down at its result page's next visit."""

from django.db import migrations


def rescore(apps, schema_editor):
    Result = apps.get_model("companion", "Result")
    Result.objects.filter(sheet__isnull=False).update(sheet_version=0)


class Migration(migrations.Migration):
    dependencies = [
        ("companion", "0013_scoresheet_grand_master"),
    ]

    operations = [
        migrations.RunPython(rescore, migrations.RunPython.noop),
    ]
