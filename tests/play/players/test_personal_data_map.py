"""The one map of a player's data (service/play/players/personaldata.py) holds every table of the
models: a table that names a player (a player id, an address, a seat, a sender, an owner ...)
says what the export, a change of address and an erasure each do with it, and a table that
names nobody says why. A table added without an entry fails here, with the entry to write."""
from __future__ import annotations

import re

from sqlalchemy import Column, ForeignKey, Integer, MetaData, String, Table, Text

from service.play.players import erasure, personaldata
from service.play.reads import mydata
from service.store.models import Base

MAP_FILE = "service/play/players/personaldata.py"
#: column names that name a player, whatever their type: ids, addresses, senders, owners ...
NAMING = re.compile(
    r"(^|_)(player|players|email|emails|addr|address|addresses|sender|senders|recipient|"
    r"recipients|owner|user|member|author|reporter|blocker|blocked|challenger|defender|"
    r"rater|invitee|inviter|follower|followed|followee|subscriber|created_by|seat|seats|"
    r"byes|entrant)(_|$)")


def names_a_player(column) -> bool:
    return bool(NAMING.search(column.name)) or any(
        fk.column.table.name == "players" for fk in column.foreign_keys)


def problems(metadata: MetaData, holdings=personaldata.MAP,
             nobody=personaldata.NAMES_NOBODY) -> list[str]:
    """What the map misses or gets wrong about these tables, each in words that say what to
    add and where."""
    found = []
    by_table = {h.table: h for h in holdings}
    for table in metadata.sorted_tables:
        naming = [c.name for c in table.columns if names_a_player(c)]
        holding = by_table.get(table.name)
        if holding is None and table.name in nobody:
            if naming:
                found.append(f"table {table.name!r} is in NAMES_NOBODY of {MAP_FILE}, but its "
                             f"columns {naming} name a player: give it a Holding in MAP "
                             "instead")
            continue
        if holding is None:
            found.append(
                f"table {table.name!r} is not in the map of a player's data. Add to MAP in "
                f"{MAP_FILE}: Holding({table.name!r}, names={{"
                + ", ".join(f"{c!r}: ID|ADDRESS|SEAT|..." for c in naming)
                + "}, export=Rows()|Part(...)|NotExported(why), readdress=Follow(why)|"
                "Forget(why)|Same(why), erase=Delete(why)|Anonymous(why)|Step(name, why)) "
                "(the entries for 'vacations', 'plans' and 'sign_ins' are models); or, if it "
                f"names nobody, a line in NAMES_NOBODY saying why. Columns that name a "
                f"player: {naming or 'none found by name'}")
            continue
        listed = set(holding.names) | set(holding.ignores) | set(holding.free_text)
        for name in sorted(set(naming) - set(holding.names) - set(holding.ignores)):
            found.append(f"column {table.name}.{name} names a player but the map's entry for "
                         f"{table.name!r} ({MAP_FILE}) does not list it: add it to its names "
                         "with how it names them (ID, ADDRESS, SEAT ...), or to its ignores "
                         "with why it does not")
        for name in sorted(listed - {c.name for c in table.columns}):
            found.append(f"the map's entry for {table.name!r} names a column {name!r} that "
                         "the table does not have")
        for name, kind in holding.names.items():
            if kind not in personaldata.KINDS:
                found.append(f"{table.name}.{name}: {kind!r} is not a kind of naming")
            if kind == personaldata.SEAT and "game_id" not in table.columns:
                found.append(f"{table.name}.{name} names a seat, but the table has no game_id")
        for action in (holding.export, holding.erase):
            by = getattr(action, "by", ())
            if set(by) - set(holding.names):
                found.append(f"{table.name}: {type(action).__name__} selects by "
                             f"{sorted(set(by) - set(holding.names))}, which it does not name")
    for name in sorted(set(by_table) | set(nobody)):
        if name not in metadata.tables:
            found.append(f"the map lists a table {name!r} that the models do not have")
    return found


def test_every_table_of_the_models_is_in_the_map():
    assert problems(Base.metadata) == []


def test_each_entry_says_what_the_three_rights_do():
    for h in personaldata.MAP:
        assert isinstance(h.export, (personaldata.Rows, personaldata.Part,
                                     personaldata.NotExported)), h.table
        assert isinstance(h.readdress, (personaldata.Follow, personaldata.Forget,
                                        personaldata.Same)), h.table
        assert isinstance(h.erase, (personaldata.Delete, personaldata.Anonymous,
                                    personaldata.Step)), h.table
        for action in (h.export, h.readdress, h.erase):
            why = getattr(action, "why", getattr(action, "name", "rows"))
            assert why, f"{h.table}: say why"
    assert len({h.table for h in personaldata.MAP}) == len(personaldata.MAP)


def test_every_named_step_and_part_has_its_code():
    steps = {h.erase.name for h in personaldata.MAP if isinstance(h.erase, personaldata.Step)}
    assert steps == set(erasure.STEPS)
    parts = {h.export.name for h in personaldata.MAP if isinstance(h.export, personaldata.Part)}
    assert parts == set(mydata.PARTS)


def test_an_address_column_that_moves_is_one_the_erasure_clears():
    """A table whose address follows a change of address holds the address: its erasure
    deletes the rows or replaces the address."""
    for h in personaldata.MAP:
        if any(k == personaldata.ADDRESS for k in h.names.values()):
            assert not isinstance(h.erase, personaldata.Step) or h.table == "players", h.table


# -- the check can fail, and says what to do -----------------------------------------------

def _planted(*columns) -> MetaData:
    metadata = MetaData()
    for table in Base.metadata.sorted_tables:
        table.to_metadata(metadata)
    Table("private_notes", metadata, Column("id", Integer, primary_key=True),
          *columns)
    return metadata


def test_a_new_table_naming_a_player_fails_with_the_entry_to_write():
    metadata = _planted(Column("player_id", Integer, ForeignKey("players.id")),
                        Column("text", Text))
    (problem,) = problems(metadata)
    assert "'private_notes' is not in the map" in problem
    assert MAP_FILE in problem and "Holding('private_notes', names={'player_id'" in problem
    assert "export=" in problem and "readdress=" in problem and "erase=" in problem


def test_a_new_table_naming_a_seat_or_an_address_is_found_too():
    for column in (Column("game_id", Integer), Column("owner_email", String(320))):
        metadata = _planted(column, Column("seat", Integer))
        assert any("'private_notes' is not in the map" in p for p in problems(metadata))


def test_a_new_column_naming_a_player_in_a_mapped_table_fails():
    metadata = MetaData()
    for table in Base.metadata.sorted_tables:
        table.to_metadata(metadata)
    metadata.tables["ladder_games"].append_column(
        Column("referee_id", Integer, ForeignKey("players.id")))
    assert problems(metadata) == [
        "column ladder_games.referee_id names a player but the map's entry for "
        f"'ladder_games' ({MAP_FILE}) does not list it: add it to its names with how it "
        "names them (ID, ADDRESS, SEAT ...), or to its ignores with why it does not"]


def test_a_table_said_to_name_nobody_must_not_name_anyone():
    metadata = _planted(Column("sender", String(320)))
    found = problems(metadata, nobody={**personaldata.NAMES_NOBODY, "private_notes": "?"})
    assert found == [f"table 'private_notes' is in NAMES_NOBODY of {MAP_FILE}, but its columns "
                     "['sender'] name a player: give it a Holding in MAP instead"]
