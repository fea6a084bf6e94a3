"""A setup page's progress keeps the game "Track this game" made of it: one game a table (a second tap opens it)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('companion', '0015_scoresheet_group'),
    ]

    operations = [
        migrations.AddField(
            model_name='setupprogress',
            name='game',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='companion.game'),
        ),
    ]
