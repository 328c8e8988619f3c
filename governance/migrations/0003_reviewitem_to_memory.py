"""ReviewItem moves to the memory app (memory owns review): state only, the table keeps its name."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("governance", "0002_initial")]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[migrations.DeleteModel(name="ReviewItem")],
                                            database_operations=[]),
    ]
