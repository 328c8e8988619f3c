from django.apps import AppConfig


class BenchConfig(AppConfig):
    """Evaluation only (no models): installed for its management commands ``bench_pii``, ``bench_locomo`` and
    ``bench_scale``. The product apps do not import it (one exception, at call time: the operator command
    ``calibrate_thresholds --locomo`` reads a LoCoMo file with :mod:`bench.locomo`'s loader)."""

    name = "bench"
    verbose_name = "Benchmarks"
