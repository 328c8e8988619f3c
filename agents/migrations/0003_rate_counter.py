from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('agents', '0002_project_quotas_archive'),
    ]

    operations = [
        migrations.CreateModel(
            name='RateCounter',
            fields=[
                ('key', models.CharField(max_length=250, primary_key=True, serialize=False)),
                ('count', models.BigIntegerField(default=0)),
                ('expires_at', models.DateTimeField(db_index=True)),
            ],
        ),
        # Counters are worth no write-ahead log: lost in a crash, the limits simply start afresh.
        migrations.RunSQL("ALTER TABLE agents_ratecounter SET UNLOGGED", "ALTER TABLE agents_ratecounter SET LOGGED"),
    ]
