"""The deliveries a worker defers to come back to itself (`workers.jobs.Deferred`)."""

from __future__ import annotations

from workers.jobs import Deferred


def test_a_deferred_delivery_is_due_at_its_time_the_earliest_first():
    deferred = Deferred()
    assert not deferred and deferred.wait(100.0) is None
    deferred.put("-100", 0, 101.5)
    deferred.put("-200", 2, 100.5)
    assert deferred and deferred.wait(100.0) == 0.5
    assert deferred.take_due(100.0) == []
    assert deferred.take_due(101.5) == [("-200", 2), ("-100", 0)]
    assert not deferred


def test_a_room_waits_once_for_its_earliest_time():
    deferred = Deferred()
    deferred.put("-100", 0, 105.0)
    deferred.put("-100", 1, 102.0)
    deferred.put("-100", 3, 104.0)
    assert deferred.wait(100.0) == 2.0
    assert deferred.take_all() == [("-100", 1, 102.0)]
    assert not deferred and deferred.take_due(1e9) == []
