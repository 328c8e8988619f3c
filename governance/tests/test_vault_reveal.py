"""Revealing an original from the vault: permissions, a reason, and the audit trail."""

import pytest
from django.contrib.auth.models import Permission, User

from core.errors import ApplicationError, NotAllowed
from governance.models import AuditEvent, VaultEntry
from governance.services.privacy import texts_mask, vault_reveal

pytestmark = pytest.mark.django_db


def test_vault_reveal_needs_permission_and_is_audited(make_agent):
    holder = make_agent()
    masked = texts_mask(project=holder.agent.project, texts=["Call Jane Fonda at +1 415 555 0100 please"])[0]
    assert "Jane Fonda" not in masked
    entry = VaultEntry.objects.filter(project=holder.agent.project, entity_type="PERSON").first()
    assert entry is not None and entry.placeholder in masked and "Jane" not in entry.ciphertext
    nobody = User.objects.create_user("nobody", password="x")
    with pytest.raises(NotAllowed):
        vault_reveal(project=holder.agent.project, placeholder=entry.placeholder, user=nobody, reason="curious")
    assert not AuditEvent.objects.filter(action="reveal").exists()
    # the reveal permission alone is not enough, the vault's view permission is needed as well: a reveal reads the vault
    half = User.objects.create_user("half", password="x")
    half.user_permissions.add(Permission.objects.get(codename="reveal_vaultentry"))
    half = User.objects.get(pk=half.pk)
    with pytest.raises(NotAllowed):
        vault_reveal(project=holder.agent.project, placeholder=entry.placeholder, user=half, reason="curious")
    officer = User.objects.create_user("officer", password="x")
    officer.user_permissions.add(*Permission.objects.filter(codename__in=["reveal_vaultentry", "view_vaultentry"]))
    officer = User.objects.get(pk=officer.pk)
    with pytest.raises(ApplicationError):
        vault_reveal(project=holder.agent.project, placeholder=entry.placeholder, user=officer, reason=" ")
    assert vault_reveal(project=holder.agent.project, placeholder=entry.placeholder, user=officer,
                        reason="data subject request") == "Jane Fonda"
    event = AuditEvent.objects.get(action="reveal")
    assert event.actor_user == officer and event.reason == "data subject request"
    refused = AuditEvent.objects.filter(action="reveal_refused").order_by("id")
    assert [(e.actor_user.username, e.data["refused"]) for e in refused] == [
        ("nobody", "permission_denied"), ("half", "permission_denied"), ("officer", "reason_required")]
