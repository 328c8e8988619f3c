"""The scope rule's order on scopes (pure functions) and its query forms."""

import uuid

import pytest

from agents.visibility import (
    IncomparableScopes,
    Scope,
    ScopeKey,
    Visibility,
    scope_chain,
    scope_narrowest,
    scopes_comparable,
)

P = uuid.uuid4()
X, Y = uuid.uuid4(), uuid.uuid4()
M1, M2, M3 = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
X_SEES = Visibility(project_id=P, agent_id=X, module_ids=frozenset({M1, M2}))  # X is in m1 and m2, not m3


def key(scope, owner=None, module=None, project=P):
    return ScopeKey.for_scope(project_id=project, scope=scope, owner_agent_id=owner, module_id=module)


PERSONAL_X, PERSONAL_Y = key(Scope.PERSONAL, owner=X), key(Scope.PERSONAL, owner=Y)
MOD1, MOD2, MOD3 = key(Scope.MODULE, module=M1), key(Scope.MODULE, module=M2), key(Scope.MODULE, module=M3)
PROJECT = key(Scope.PROJECT)


@pytest.mark.parametrize("keys,narrowest", [
    ([PERSONAL_X], PERSONAL_X),
    ([PROJECT, MOD1, PERSONAL_X], PERSONAL_X),  # a personal source makes the output personal
    ([MOD1, PROJECT, MOD1], MOD1),  # module sources of m make it module m
    ([PROJECT, PROJECT], PROJECT),
])
def test_the_output_lives_in_the_narrowest_source_scope(keys, narrowest):
    assert scope_narrowest(keys, visibility=X_SEES) == narrowest


@pytest.mark.parametrize("keys", [
    [MOD1, MOD2],  # two modules: no reader set contains the other
    [PERSONAL_X, MOD1, MOD2],  # pairwise: m1 and m2 still may not be merged
    [PERSONAL_X, MOD3],  # X is not a member of m3
    [PERSONAL_X, PERSONAL_Y],
    [PERSONAL_Y, MOD1],  # another agent's modules are not known: not comparable is the safe answer
    [MOD1, key(Scope.PROJECT, project=uuid.uuid4())],  # another project
    [],
])
def test_incomparable_scopes_cannot_be_merged(keys):
    with pytest.raises(IncomparableScopes):
        scope_narrowest(keys, visibility=X_SEES)


def test_comparability_is_symmetric_and_follows_membership():
    for a, b in [(PERSONAL_X, MOD1), (MOD1, PROJECT), (PERSONAL_X, PROJECT), (PERSONAL_Y, PROJECT)]:
        assert scopes_comparable(a, b, visibility=X_SEES) and scopes_comparable(b, a, visibility=X_SEES)
    for a, b in [(MOD1, MOD2), (PERSONAL_X, MOD3), (PERSONAL_X, PERSONAL_Y)]:
        assert not scopes_comparable(a, b, visibility=X_SEES)


def test_a_chain_keeps_the_first_item_and_what_stays_comparable():
    items = [("trigger", PERSONAL_X), ("a", MOD1), ("b", MOD2), ("c", PROJECT), ("d", MOD1), ("e", MOD3)]
    kept = scope_chain(items, key=lambda i: i[1], visibility=X_SEES)
    assert [name for name, _ in kept] == ["trigger", "a", "c", "d"]  # m2 (after m1) and m3 (not X's) are left out
    assert scope_narrowest([k for _, k in kept], visibility=X_SEES) == PERSONAL_X
