"""A group keeps the form that made it: "File it" or "Restore as a new group" tapped twice makes one group."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('companion', '0016_setup_progress_game'),
    ]

    operations = [
        migrations.AddField(
            model_name='group',
            name='made_by',
            field=models.CharField(blank=True, editable=False, max_length=64, null=True, unique=True),
        ),
    ]
