"""`mcts`: a search policy that needs no game knowledge, for any ruleset and any hybrid.

At each decision of its side it runs determinized Monte Carlo tree search over forks of the game
(`game.fork()`, which works at a pending decision mid-tick):

- Determinization: each iteration's fork gets fresh random streams (future dice, deck shuffles),
  every deck's draw pile reshuffled (the order of unseen cards), and the ruleset's own hidden
  information re-sampled by its determinizer (`hidden:` in the ruleset YAML, e.g. the types of
  Stalingrad's face-down zombies). So the search never reads what a player could not see at the
  table. A ruleset that names no determinizer declares no hidden information beyond dice and decks.
- The tree is open loop over this side's own decisions (children keyed by the option's value, as
  options can differ between determinizations); every other side, and this side below the tree, is
  answered by the rollout policy (`heuristic` by default, or `random`) to the end of the game.
- Selection is PUCT (as in AlphaZero) with the rollout policy as its prior: at each node of the
  tree, the option the rollout policy would take there gets the prior weight `prior` (0.75 by
  default) and the rest is shared evenly among the other options; an option not yet tried is valued
  at its node's mean. So a small budget plays what the rollout policy plays, and the search departs
  from it only where its rollouts show another option doing better. Plain UCT over uniform priors
  at 8-32 iterations played Shambling no better than `random` (README, "Strength"): a few dozen
  rollouts cannot rank options by themselves in a game won about one time in seven.
- Reward: 1 when the game ends in the searching side's team's outcome, else 0. A side's team is
  `survivors` for players and the party, `zombies` for the narrator, the game master and zombies
  (`team_of`), the outcome names every shipped game uses.
- Randomness: drawn from the game's policy stream `policy/<side>`, saved with the game, so batches
  are reproducible for any number of workers. The answer is recorded like any other: a replay of a
  game played by `mcts` verifies without searching again.

Options: `mcts:iterations=200` (default 64), `time=0.5` (seconds per decision instead; not
reproducible), `rollout=random`, `c=1.4` (exploration), `prior=0.75` (the rollout policy's weight in
the prior; 0 for uniform priors), `depth=40` (most decisions of this side in the tree); several
are joined by colons, `mcts:iterations=32:rollout=random` (commas separate sides).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from ecs_zombie import canonical
from ecs_zombie.components import Deck
from ecs_zombie.decisions import Decision, PolicyTable
from ecs_zombie.errors import GameError
from ecs_zombie.game import Game
from ecs_zombie.rng import PCG32, Streams

SURVIVOR_SIDES = ("player", "party", "survivors")
ZOMBIE_SIDES = ("narrator", "gm", "zombies")


def team_of(side: str) -> str:
    """`survivors` or `zombies`: whose win a decision of `side` is working for."""
    head = side.split(":", 1)[0]
    if head in ZOMBIE_SIDES:
        return "zombies"
    if head in SURVIVOR_SIDES:
        return "survivors"
    raise GameError(f"mcts cannot tell which team side {side!r} plays for")


@dataclass(slots=True)
class Node:
    visits: int = 0
    wins: float = 0.0
    children: dict[bytes, Node] = field(default_factory=dict)
    favoured: bytes | None = None  # the option the rollout policy took here, the first time here


def determinize(game: Game, rng: PCG32) -> None:
    """Make a fork's unseen future a fresh sample: new random streams, reshuffled draw piles, and
    the ruleset's hidden information re-sampled."""
    from ecs_zombie.registry import HIDDEN

    game.rng = Streams(rng.next32() << 32 | rng.next32())
    game.dice_script.values, game.dice_script.pos = [], 0
    game.card_script = []
    for _ent, deck in game.world.query1(Deck):
        game.rng("deck/" + deck.name).shuffle(deck.draw)
    hide = HIDDEN.get(getattr(game.ruleset, "hidden", ""))
    if hide is not None:
        hide(game, rng)


class MCTSPolicy:
    """Determinized open-loop UCT over forks (see the module docstring)."""

    name = "mcts"
    needs_tick_start = True

    def __init__(self, iterations: str | int = 64, time: str | float = 0.0, rollout: str = "heuristic",
                 c: str | float = 1.4, depth: str | int = 40, prior: str | float = 0.75) -> None:
        self.iterations = int(iterations)
        self.seconds = float(time)
        self.c = float(c)
        self.depth = int(depth)
        self.prior = float(prior)
        # `not x >= 0` and not `x < 0`: NaN fails every comparison, and must be refused too.
        if (self.iterations < 1 or self.depth < 1 or not 0.0 <= self.seconds < math.inf
                or not 0.0 <= self.c < math.inf):
            raise ValueError("iterations and depth take whole numbers of 1 or more; time and c a finite "
                             "number, 0 or more")
        if not 0.0 <= self.prior <= 1.0:
            raise ValueError("prior takes a weight from 0 to 1")
        if rollout not in ("heuristic", "random"):
            raise ValueError(f"rollout takes heuristic or random, got {rollout!r}")
        self.rollout = PolicyTable(rollout)
        self.decisions = 0
        self.searching = 0.0  # seconds spent searching, for reports of time per decision

    def choose(self, game: Game, decision: Decision) -> int:
        if len(decision.options) == 1:
            return 0
        started = time.perf_counter()
        rng = game.rng("policy/" + decision.side)
        team = team_of(decision.side)
        root = Node()
        keys = [canonical.pack_sorted(o) for o in decision.options]
        deadline = started + self.seconds if self.seconds else None
        done = 0
        while done < self.iterations if deadline is None else time.perf_counter() < deadline:
            self._iterate(game, decision, root, team, rng)
            done += 1
        best = max(range(len(keys)), key=lambda i: (root.children[keys[i]].visits, root.children[keys[i]].wins,
                                                    keys[i] == root.favoured, -i)
                   if keys[i] in root.children else (-1, 0.0, False, -i))
        self.decisions += 1
        self.searching += time.perf_counter() - started
        return best

    def _select(self, node: Node, keys: list[bytes], rng: PCG32) -> int:
        """PUCT among the legal options (two or more: a decision of one is never searched), the
        rollout policy's option (`node.favoured`) weighted `prior` in the prior; an untried option
        is valued at the node's mean; ties drawn at random."""
        n = len(keys)
        fav = node.favoured if node.favoured in keys else None
        share = (1.0 - self.prior) / (n - 1) if fav is not None else 1.0 / n
        mean = node.wins / node.visits if node.visits else 0.5
        root_n = math.sqrt(max(1, node.visits))
        scores = []
        for key in keys:
            child = node.children.get(key)
            visits = child.visits if child is not None else 0
            q = child.wins / visits if child is not None else mean  # a child is visited as it is made
            p = self.prior if key == fav else share
            scores.append(q + self.c * p * root_n / (1 + visits))
        top = max(scores)
        tied = [i for i, s in enumerate(scores) if s >= top - 1e-12]
        return tied[rng.below(len(tied))] if len(tied) > 1 else tied[0]

    def _iterate(self, game: Game, decision: Decision, root: Node, team: str, rng: PCG32) -> None:
        fork = game.fork()
        fork.keep_tick_start = False  # a rollout is never forked again
        try:
            determinize(fork, rng)
            side = decision.side
            path = [root]
            node: Node | None = root
            depth = 0
            pending = fork.pending
            while pending is not None:
                if node is not None and pending.side == side and depth < self.depth and len(pending.options) > 1:
                    keys = [canonical.pack_sorted(o) for o in pending.options]
                    if node.favoured is None:
                        node.favoured = keys[self.rollout.choose(fork, pending)]
                    i = self._select(node, keys, rng)
                    child = node.children.get(keys[i])
                    depth += 1
                    if child is None:  # expand one node, then play the rest out by the rollout policy
                        path.append(node.children.setdefault(keys[i], Node()))
                        if fork.step(i) is not None:
                            fork.play(self.rollout)
                        break
                    path.append(child)
                    node = child
                    answer = i
                else:
                    answer = self.rollout.choose(fork, pending)
                pending = fork.step(answer)
            reward = 1.0 if fork.outcome == team else 0.0
            for n in path:
                n.visits += 1
                n.wins += reward
        finally:
            fork.close()
