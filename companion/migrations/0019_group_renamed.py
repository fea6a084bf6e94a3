"""When a group was last renamed: a rename is a use of the group, which keeps its results (retention)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('companion', '0018_bgstats_ids'),
    ]

    operations = [
        migrations.AddField(
            model_name='group',
            name='renamed',
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
    ]
