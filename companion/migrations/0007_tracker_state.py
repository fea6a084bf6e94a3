from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("companion", "0006_results_groups")]

    operations = [
        migrations.AddField(model_name="game", name="revealed", field=models.JSONField(default=list)),
        migrations.AddField(model_name="game", name="ticks", field=models.JSONField(default=list)),
        migrations.AddField(model_name="seat", name="record", field=models.JSONField(default=dict)),
        migrations.AddField(
            model_name="change",
            name="client_id",
            field=models.CharField(blank=True, default="", max_length=40),
        ),
        migrations.AddConstraint(
            model_name="change",
            constraint=models.UniqueConstraint(
                condition=models.Q(("client_id", ""), _negated=True),
                fields=("game", "client_id"),
                name="change_unique_client_id",
            ),
        ),
    ]
