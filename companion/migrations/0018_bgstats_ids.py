"""A restored group keeps its BG Stats ids: its players' and each game's, as its file gave them."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('companion', '0017_group_made_by'),
    ]

    operations = [
        migrations.AddField(
            model_name='group',
            name='bgstats_players',
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name='result',
            name='bgstats_id',
            field=models.CharField(blank=True, default='', max_length=40),
        ),
    ]
