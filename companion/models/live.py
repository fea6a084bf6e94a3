"""The live-table engine's memory of writes (issue 21, docs/sync.md): one row per write a phone pushed, stored in
the transaction of the write itself, so a write sent again (a retry after a lost answer) is answered with what the
first one answered and applied at most once."""

from __future__ import annotations

from typing import ClassVar

from django.db import models
from django.utils import timezone

#: A stored answer not emptied yet (companion.live.engine.prune empties the old ones, but for a redirect's address).
HOLDING = ~models.Q(body="")


class Mutation(models.Model):
    """A write of ``client`` (a phone's id) number ``counter`` on a shared ``thing`` ("sheet:12", "osaka:3")."""

    thing = models.CharField(max_length=40)
    client = models.CharField(max_length=32)
    counter = models.PositiveIntegerField()
    #: The thing's version once the write was applied (or as it stood when it was refused).
    version = models.PositiveIntegerField()
    status = models.PositiveSmallIntegerField()
    body = models.TextField()
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        app_label = "companion"
        constraints: ClassVar = [
            models.UniqueConstraint(fields=("thing", "client", "counter"), name="live_mutation_once"),
        ]
        #: The rows still holding an answer's pieces, by age: what companion.live.engine.prune empties, found
        #: without reading the rows kept for every write ever made (they stay until their thing goes).
        indexes: ClassVar = [models.Index(fields=("at",), condition=HOLDING, name="live_mutation_answer_at")]

    def __str__(self) -> str:
        return f"{self.thing} {self.client}#{self.counter} -> v{self.version}"
