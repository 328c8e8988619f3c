"""Regenerate bench/data/techtext.json (the technical-text precision set, see bench.techtext)."""

from django.core.management.base import BaseCommand

from bench.techtext import DATA_PATH, build, write


class Command(BaseCommand):
    help = ("Extract sentences of real technical prose from the installed distributions' descriptions, insert "
            "labelled personal data into one in five, and write bench/data/techtext.json.")

    def handle(self, *args, **options):
        records = build()
        write(records)
        held = sum(r["part"] == "held" for r in records)
        self.stdout.write(f"{len(records)} sentences ({held} held back) written to {DATA_PATH}")
