"""The review queue and the undo of memory acts, one package: a person's decisions on promotions and conflicts
(:mod:`.services`), what a reviewer reads to decide (:mod:`.selectors`), the versions kept before every change
(:mod:`.versions`) and the rollback of a whole consolidation batch that reads them back (:mod:`.rollback`).

It lives in ``memory`` (not ``governance``): the decisions and the rollback act on memory rows, and governance sits
below memory in the layering (docs/architecture.md).
"""
