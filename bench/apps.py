from django.apps import AppConfig


class BenchConfig(AppConfig):
    """Evaluation only (no models): installed for its management commands ``bench_pii``, ``bench_locomo``,
    ``bench_scale`` and ``bench_calibrate``. The product apps do not import it."""

    name = "bench"
    verbose_name = "Benchmarks"
