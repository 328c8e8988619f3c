"""Episodes no longer earn "corroborated" (memory/trust.py ``episode_trust``): a narrative is its sources' sentences,
each one agent's word. Relabels the episodes the old rule called corroborated with the weakest trust of their sources;
the reverse relabels episodes with sources from two or more agents that may corroborate as the old rule did. The
rule is restated here (a migration must not follow later changes of the app's code)."""

from django.db import migrations

RANK = {"tool": 0, "assistant": 1, "user": 2, "corroborated": 3, "reviewed": 4}


def _exchange_trust(source, user_text):
    if source in ("tool", "import"):
        return "tool"
    if source == "agent_note":
        return "assistant"
    return "user" if (user_text or "").strip() else "assistant"


def _sources(EpisodeSource, episode_id):
    return EpisodeSource.objects.filter(episode_id=episode_id).values_list(
        "exchange__owner_agent_id", "exchange__source", "exchange__quarantined", "exchange__user_text")


def _weakest(rows):
    levels = [_exchange_trust(source, user) for _, source, _, user in rows]
    return min(levels, key=RANK.__getitem__) if levels else "assistant"


def forwards(apps, schema_editor):
    Episode = apps.get_model("memory", "Episode")
    EpisodeSource = apps.get_model("memory", "EpisodeSource")
    for pk in Episode.objects.filter(trust="corroborated").values_list("pk", flat=True).iterator():
        Episode.objects.filter(pk=pk).update(trust=_weakest(_sources(EpisodeSource, pk)))


def backwards(apps, schema_editor):
    Episode = apps.get_model("memory", "Episode")
    EpisodeSource = apps.get_model("memory", "EpisodeSource")
    for pk in Episode.objects.exclude(trust__in=("corroborated", "reviewed")).values_list("pk", flat=True).iterator():
        rows = list(_sources(EpisodeSource, pk))
        agents = {agent for agent, source, held, _ in rows if source not in ("tool", "import") and not held}
        if len(agents) >= 2:
            Episode.objects.filter(pk=pk).update(trust="corroborated")


class Migration(migrations.Migration):

    dependencies = [
        ("memory", "0027_exchange_held_index"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards),
    ]
