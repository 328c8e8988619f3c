"""Reads of the governance records."""

from __future__ import annotations

from django.db.models import QuerySet
from django.db.models.functions import Now

from governance.models import ConsolidationBatch


def batches_lease_expired() -> QuerySet[ConsolidationBatch]:
    """Running batches whose process stopped renewing their lease (on the database's clock)."""
    return ConsolidationBatch.objects.filter(status=ConsolidationBatch.Status.RUNNING, lease_expires_at__lt=Now())
