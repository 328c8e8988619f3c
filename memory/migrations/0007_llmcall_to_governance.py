"""LLMCall moves to governance (the batch record owns its calls): state only, the table keeps its name."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("memory", "0006_reviewitem_from_governance")]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[migrations.DeleteModel(name="LLMCall")],
                                            database_operations=[]),
    ]
