"""Interactive play at the terminal: humans and bots in any seats, hot-seat safe."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape

import spyglass
from spyglass import agents
from spyglass.agents import Agent
from spyglass.engine import (
    Action,
    Game,
    IllegalAction,
    RulesError,
    SpyglassError,
    State,
    derive_seed,
    read_record,
    write_record,
)

from .maps import UnknownPlace, render_index, render_place
from .menu import MoveMenu, map_places
from .render import (
    colour_cards_in,
    lookup,
    render_actions,
    render_region,
    render_result,
    render_step,
    render_table,
)

HUMAN = "human"
#: A hint: the game's measured strongest agent (agents.strongest), held to under a second of
#: CPU time.
HINT_BUDGET = {"milliseconds": agents.HINT_MS}
#: Erases the terminal's scrollback: rich's clear() erases the screen only (ESC[2J), and many
#: terminals, tmux among them, keep what was erased in their history.
ERASE_SCROLLBACK = "\x1b[3J"
#: The moves that only say "nothing to do": asked even when nothing else is possible, so that
#: nobody can tell from the question whether a power had a choice.
PASS_MOVES = ("pass",)

HELP = """\
[bold]Commands[/]
  [cyan]NUMBER[/]        play the move with that number
  [cyan]NOTATION[/]      type the move itself, e.g. [bold]8S QS 3S[/] or [bold]8♠ Q♠ 3♠[/]
  [cyan]hint[/]          ask the strongest agent what it would play
  [cyan]undo[/]          take back your last move (solo games)
  [cyan]save FILE[/]     save the game record (JSON) to FILE
  [cyan]load FILE[/]     continue a saved game
  [cyan]rules[/]         show the rules
  [cyan]log[/]           show the whole game log
  [cyan]walk[/]          step through the last story (e.g. a scored city)
  [cyan]map PLACE[/]     a place on the map: its pieces and every route from it
                (also [cyan]routes PLACE[/]; [cyan]map[/] alone lists every place)
  [cyan]show[/] or Enter  draw the table again
  [cyan]quit[/]          leave the game (a solo game counts as given up)
In a long list of moves grouped by country: a number or a name opens it, [cyan]back[/] goes up."""


@dataclass
class PlaySession:
    """One game at the terminal. ``seats`` maps each seat to "human" or an agent name."""

    console: Console
    state: State
    seats: dict[int, str]
    agent_seed: int = 0
    _agents: dict[int, Agent] = field(default_factory=dict)
    _undo: list[State] = field(default_factory=list)
    _last_human: int | None = None
    _stories_seen: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self._seat_agents()

    @property
    def humans(self) -> list[int]:
        return [seat for seat, who in self.seats.items() if who == HUMAN]

    def _seat_agents(self) -> None:
        self._agents = {
            seat: agents.load_spec(who, seed=derive_seed(self.agent_seed, f"seat/{seat}"))
            for seat, who in self.seats.items()
            if who != HUMAN
        }

    # ----------------------------------------------------------------- main loop

    def run(self) -> None:
        while True:
            if self.state.is_over:
                if not self._after_game():
                    return
                continue
            player = self.state.current_player
            assert player is not None
            if player in self._agents:
                self._bot_move(player)
                continue
            if not self._human_turn(player):
                return

    def _observer(self) -> int | None:
        """Whose eyes the table is drawn through: the human on turn, else the only human."""
        player = self.state.current_player
        if player is not None and self.seats.get(player) == HUMAN:
            return player
        humans = self.humans
        return humans[0] if len(humans) == 1 else None

    def _draw(self, seat: int | None) -> None:
        view = self.state.view(seat)
        spec = self.state.game.spec
        self.console.print(render_table(view, spec.layout, spec.info))
        for line in view["log"][-4:]:
            self.console.print(f"  [dim]·[/] {colour_cards_in(line)}")

    def _bot_move(self, player: int) -> None:
        """Let a bot move, then tell the table what it saw of the move: the new log lines of
        the observer's view, never ``describe()`` (which would show a bot's secret choice)."""
        action = self._agents[player].choose(self.state.seat(player))
        observer = self._observer()
        before = len(self.state.view(observer)["log"])
        self.state.apply(action)
        seen = self.state.view(observer)["log"][before:]
        who = f"[magenta]seat {player} ({self.seats[player]})[/]"
        if not seen:
            self.console.print(f"{who} moved")
        for line in seen:
            self.console.print(f"{who} · {colour_cards_in(line)}")

    def _stories(self, seat: int | None) -> list[dict]:
        """The step-through stories in this seat's view (layout regions of kind "story")."""
        table = self.state.view(seat)["table"]
        found = []
        for region in self.state.game.spec.layout:
            if region.kind == "story":
                story = lookup(table, region.key)
                if isinstance(story, dict) and story.get("steps"):
                    found.append(story)
        return found

    def _new_stories(self, seat: int | None) -> bool:
        """Walk the player through stories they have not seen; False if input ended."""
        for story in self._stories(seat):
            key = str(story.get("id"))
            if key not in self._stories_seen:
                self._stories_seen.add(key)
                if not self._walk(story):
                    return False
        return True

    def _walk(self, story: dict) -> bool:
        steps = story["steps"]
        for index in range(len(steps)):
            self.console.print(render_step(story, index))
            if index + 1 < len(steps):
                try:
                    answer = self.console.input("[dim]Enter: next step · s: skip[/] › ")
                except EOFError:
                    return False
                if answer.strip().lower() == "s":
                    break
        return True

    def _human_turn(self, player: int) -> bool:
        self._hand_over(player)
        if not self._new_stories(player):
            return False
        actions = self.state.legal_actions()
        if len(actions) == 1 and str(actions[0]) in PASS_MOVES:
            return self._only_pass(player, actions[0])
        menu = MoveMenu.build(actions, self._places(player))
        shown = self.state
        redraw = True
        while True:
            if self.state is not shown:  # taken back (undo): its moves, not the old ones
                shown = self.state
                actions = self.state.legal_actions()
                menu = MoveMenu.build(actions, self._places(player))
            if redraw:
                self._draw(player)
                self._list_moves(actions, menu)
            who = f"seat {player}" if len(self.seats) > 1 else "you"
            try:
                line = self.console.input(f"[bold]Move ({who})[/] › ").strip()
            except EOFError:
                self.console.print()
                return False
            if menu is not None and line:
                chosen = menu.choose(line)
                if chosen == "moved":
                    self.console.print(menu.heading())
                    self.console.print(menu.render())
                    continue
                if chosen == "no such number":
                    count = len(menu.entries())
                    self.console.print(
                        f"[red]There is no {escape(line)} here: choose 1–{count}.[/]"
                    )
                    continue
                if isinstance(chosen, Action):
                    line = str(chosen)
            outcome = self._command(line, player, actions, numbered=menu is None)
            if outcome == "quit":
                return False
            if outcome == "moved":
                return True
            redraw = outcome == "redraw"

    def _list_moves(self, actions: list[Action], menu: MoveMenu | None) -> None:
        if menu is None:
            self.console.print(render_actions(actions, self.state.describe))
            return
        self.console.print(menu.heading())
        self.console.print(menu.render())

    def _places(self, seat: int) -> dict[str, tuple[str, str]]:
        """The map's places (for grouping long lists of moves), if the game has a map."""
        keys = [r.key for r in self.state.game.spec.layout if r.kind == "map"]
        if not keys:
            return {}
        return map_places(self.state.view(seat)["table"], keys)

    def _only_pass(self, player: int, action: Action) -> bool:
        """A question whose only answer is to pass: answered at once, with a line to say so.
        The question itself is kept (in hot-seat the pass screen still comes first), so the
        table learns nothing from it; only the needless confirmation goes."""
        who = f"seat {player}" if len(self.seats) > 1 else "you"
        self.console.print(
            f"[dim]{escape(who)}: nothing to decide here ({escape(self.state.describe(action))}),"
            " so the move is made for you[/]"
        )
        self.state.apply(action)
        return True

    def _hand_over(self, player: int) -> None:
        """Hot-seat: before a human seat's turn, unless that seat moved last, hide everything
        (the screen and the terminal's scrollback) until the seat's player sits down. The
        first human to move gets the pass screen too: the others are at the table already."""
        humans = self.humans
        if len(humans) > 1 and self._last_human != player:
            self._wipe()
            self.console.print(f"[bold]Pass the device to seat {player}[/] and press Enter.")
            with contextlib.suppress(EOFError):
                self.console.input("")
            self._wipe()
        self._last_human = player

    def _wipe(self) -> None:
        """Clear the screen and the scrollback, so that scrolling up shows nothing of the
        last seat's table."""
        self.console.clear()
        if self.console.is_terminal:
            self.console.file.write(ERASE_SCROLLBACK)
            self.console.file.flush()

    # ----------------------------------------------------------------- commands

    def _command(self, line: str, player: int, actions: list, numbered: bool = True) -> str:
        """Handle one line; returns "moved", "quit", "redraw" or "stay". ``numbered``: whether
        a bare number picks a move of ``actions`` (not when a grouped menu is showing)."""
        if not line or line.lower() == "show":
            return "redraw"
        word, _, rest = line.partition(" ")
        word = word.lower()
        if word in ("quit", "q", "exit"):
            if self.state.players == 1:
                self.console.print("[yellow]You gave up: the game counts as lost.[/]")
            return "quit"
        if word in ("help", "?", "h"):
            self.console.print(HELP + self._region_help())
            return "stay"
        if word == "hint":
            self._hint(player, actions, numbered)
            return "stay"
        if self._show_region(word, player):
            return "stay"
        if word == "undo":
            return "redraw" if self._undo_move() else "stay"
        if word == "save":
            self._save(rest)
            return "stay"
        if word == "load":
            return "moved" if self._load(rest) else "stay"
        if word == "rules":
            self.console.print(Markdown(self.state.game.rules_text()))
            return "stay"
        if word in ("walk", "story"):
            stories = self._stories(player)
            if not stories:
                self.console.print("[yellow]Nothing to step through yet.[/]")
            for story in stories:
                self._walk(story)
            return "stay"
        if word in ("map", "routes"):
            self._map(rest, player)
            return "stay"
        if word == "log":
            for entry in self.state.view(player)["log"]:
                self.console.print(f"  [dim]·[/] {colour_cards_in(entry)}")
            return "stay"
        if line.isdigit() and not numbered:
            self.console.print("[red]Choose from the list shown, or type the move itself.[/]")
            return "stay"
        return self._move(line, actions)

    def _region_help(self) -> str:
        """The commands the game's layout adds (long references drawn on demand)."""
        lines = [
            f"\n  [cyan]{escape(r.command):<13}[/] {escape(r.label)}"
            for r in self.state.game.spec.layout
            if r.command
        ]
        return "".join(lines)

    def _show_region(self, word: str, seat: int | None) -> bool:
        """Draw the layout region that ``word`` names (its ``command``); False if none does."""
        regions = [r for r in self.state.game.spec.layout if r.command and r.command == word]
        if not regions:
            return False
        table = self.state.view(seat)["table"]
        for region in regions:
            rendered = render_region(region, lookup(table, region.key))
            if rendered is not None:
                self.console.print(rendered)
        return True

    def _map(self, name: str, player: int | None) -> None:
        """``map PLACE``: the place, its pieces and its routes, as this seat's view has them;
        ``map`` alone: every place. Looks through each map region of the layout in turn."""
        table = self.state.view(player)["table"]
        regions = [r for r in self.state.game.spec.layout if r.kind == "map"]
        if not regions:
            self.console.print("[yellow]This game has no map.[/]")
            return
        if not name.strip():
            for region in regions:
                self.console.print(render_index(region.label, lookup(table, region.key)))
            return
        error = None
        for region in regions:
            try:
                self.console.print(render_place(lookup(table, region.key), name))
                return
            except UnknownPlace as missing:
                error = error or missing
        self.console.print(f"[red]{escape(str(error))}[/]")

    def _move(self, line: str, actions: list) -> str:
        before = self.state.clone()
        try:
            if line.isdigit():
                number = int(line)
                if not 1 <= number <= len(actions):
                    self.console.print(
                        f"[red]There is no move {number}: choose 1–{len(actions)}.[/]"
                    )
                    return "stay"
                self.state.apply(actions[number - 1])
            else:
                self.state.apply(line)
        except IllegalAction as error:
            self.console.print(f"[red]{escape(str(error))}[/]")
            self.console.print("[dim]Type a number, a move, or 'help'.[/]")
            return "stay"
        self._undo.append(before)
        return "moved"

    def _hint(self, player: int, actions: list[Action], numbered: bool = True) -> None:
        try:
            advisor = agents.load(
                agents.STRONGEST, seed=derive_seed(self.agent_seed, "hint"), **HINT_BUDGET
            )
            action = advisor.choose(self.state.seat(player))
        except SpyglassError as error:
            self.console.print(f"[red]No hint: {escape(str(error))}[/]")
            return
        description = colour_cards_in(self.state.describe(action))
        # The move's number in the list shown, so that typing it plays the hint.
        number = next((i for i, a in enumerate(actions, start=1) if a == action), None)
        shown = f"{number} · " if number is not None and numbered else ""
        self.console.print(f"[green]Hint:[/] {shown}{colour_cards_in(str(action))} — {description}")

    def _undo_move(self) -> bool:
        if self.state.players != 1:
            self.console.print("[yellow]Undo is only for solo games.[/]")
            return False
        if not self._undo:
            self.console.print("[yellow]Nothing to undo.[/]")
            return False
        self.state = self._undo.pop()
        self.console.print("[green]Move taken back.[/]")
        return True

    def _save(self, name: str) -> None:
        if not name.strip():
            self.console.print("[red]Say where: save FILE[/]")
            return
        try:
            path = write_record(self.state, Path(name.strip()).expanduser())
        except OSError as error:
            self.console.print(
                f"[red]Cannot save to {escape(name)}: {escape(error.strerror or str(error))}[/]"
            )
            return
        self.console.print(f"[green]Saved to {escape(str(path))}.[/]")

    def _load(self, name: str) -> bool:
        """Replace the game by a saved one; True if it loaded (the loop starts afresh)."""
        if not name.strip():
            self.console.print("[red]Say which file: load FILE[/]")
            return False
        try:
            state = spyglass.replay(read_record(Path(name.strip()).expanduser()))
        except RulesError as error:
            self.console.print(f"[red]Cannot load {escape(name.strip())}: {escape(str(error))}[/]")
            return False
        self.state = state
        self._undo.clear()
        if set(self.seats) != set(range(state.players)):
            self.seats = default_seats(state.players)
            self._seat_agents()
        self.console.print(f"[green]Loaded {state.game.info.title} at step {state.step}.[/]")
        return True

    # ----------------------------------------------------------------- game over

    def _after_game(self) -> bool:
        """Show the result; return True to keep going (after undo or load), False to stop."""
        if not self._new_stories(self._observer()):
            return False
        self._draw(self._observer())
        result = self.state.result
        assert result is not None
        self.console.print(render_result(result.to_json()))
        seat = self._observer()
        choices = "walk · log · save FILE · undo · load FILE · quit"
        while True:
            try:
                line = self.console.input(f"[bold]Game over[/] ({choices}) › ").strip()
            except EOFError:
                return False
            word, _, rest = line.partition(" ")
            word = word.lower()
            if word in ("", "quit", "q", "exit"):
                return False
            if word == "save":
                self._save(rest)
            elif word == "undo":
                self._undo_move()
                if not self.state.is_over:
                    return True
            elif word == "load":
                self._load(rest)
                if not self.state.is_over:
                    return True
            elif word in ("walk", "story"):
                stories = self._stories(seat)
                if not stories:
                    self.console.print("[yellow]Nothing to step through.[/]")
                for story in stories:
                    self._walk(story)
            elif word == "log":
                for entry in self.state.view(seat)["log"]:
                    self.console.print(f"  [dim]·[/] {colour_cards_in(entry)}")
            elif word in ("map", "routes"):
                self._map(rest, seat)
            elif word == "show":
                self._draw(seat)
                self.console.print(render_result(result.to_json()))
            elif not self._show_region(word, seat):
                self.console.print(f"[dim]{choices}[/]")


def default_seats(players: int) -> dict[int, str]:
    """Seat 0 is the human; every other seat is the heuristic bot."""
    return {seat: HUMAN if seat == 0 else "heuristic" for seat in range(players)}


def parse_seats(specs: list[str], players: int, game: Game | None = None) -> dict[int, str]:
    """``["0=human", "1=heuristic", "2=ismcts:iterations=500"]`` over the defaults; errors name
    the bad spec, and an agent that does not play ``game`` (if given)."""
    seats = default_seats(players)
    for spec in specs:
        seat_text, sep, who = spec.partition("=")
        if not sep or not seat_text.strip().isdigit():
            raise RulesError(f"--seat {spec!r}: write SEAT=WHO, e.g. 0=human or 1=heuristic")
        seat = int(seat_text)
        if seat not in seats:
            raise RulesError(f"--seat {spec!r}: seats are 0 to {players - 1}")
        who = who.strip()
        if who.lower() == "bot":
            who = "heuristic"
        if who.lower() != HUMAN:
            try:
                agents.load_spec(who)
            except RulesError as error:
                raise RulesError(
                    f"--seat {spec!r}: {error} (or 'human'; agents: {', '.join(agents.names())})"
                ) from None
            if game is not None:
                try:
                    agents.check_plays(agents.parse_spec(who)[0], game)
                except RulesError as error:
                    raise RulesError(f"--seat {spec!r}: {error}") from None
        seats[seat] = HUMAN if who.lower() == HUMAN else who
    return seats


def parse_options(specs: list[str]) -> Mapping[str, str]:
    options = {}
    for spec in specs:
        name, sep, value = spec.partition("=")
        if not sep or not name.strip():
            raise RulesError(f"--option {spec!r}: write NAME=VALUE, e.g. jokers=1")
        options[name.strip()] = value.strip()
    return options
