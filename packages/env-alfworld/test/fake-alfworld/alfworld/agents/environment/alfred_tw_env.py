"""The stand-in's AlfredTWEnv: ALFWorld's constructor contract (config, train_eval; games collected
from the data path; logic files required), and a deterministic household game read from each
game.tw-pddl's "house". Feedback is phrased as ALFWorld's grammar (alfred.twl2) phrases it."""

import json
import os
import time

TASK_TYPE_IDS = {
    1: "pick_and_place_simple",
    2: "look_at_obj_in_light",
    3: "pick_clean_then_place_in_recep",
    4: "pick_heat_then_place_in_recep",
    5: "pick_cool_then_place_in_recep",
    6: "pick_two_obj_and_place",
}
APPLIANCES = {"microwave": ("heat", "hot"), "fridge": ("cool", "cool"), "sinkbasin": ("clean", "clean")}
LAMPS = ("desklamp", "floorlamp")


def kind_of(name):
    return name.rsplit(" ", 1)[0]


def listing(names):
    named = ["a " + name for name in names]
    if not named:
        return "nothing"
    if len(named) == 1:
        return named[0]
    return ", ".join(named[:-1]) + ", and " + named[-1]


class AlfredTWEnv:
    def __init__(self, config, train_eval="train"):
        self.config = config
        self.train_eval = train_eval
        for key in ("domain", "grammar"):
            with open(os.path.expandvars(config["logic"][key]), encoding="utf-8"):
                pass
        data_key = {"train": "data_path", "eval_in_distribution": "eval_id_data_path", "eval_out_of_distribution": "eval_ood_data_path"}[train_eval]
        data_path = os.path.expandvars(config["dataset"][data_key])
        wanted = {TASK_TYPE_IDS[number] for number in config["env"]["task_types"]}
        self.game_files = []
        for root, _folders, files in sorted(os.walk(data_path)):
            if "traj_data.json" not in files or "game.tw-pddl" not in files:
                continue
            with open(os.path.join(root, "traj_data.json"), encoding="utf-8") as handle:
                if json.load(handle)["task_type"] not in wanted:
                    continue
            with open(os.path.join(root, "game.tw-pddl"), encoding="utf-8") as handle:
                if not json.load(handle).get("solvable", False):
                    continue
            self.game_files.append(os.path.join(root, "game.tw-pddl"))
        self.num_games = len(self.game_files)

    def init_env(self, batch_size):
        if batch_size != 1:
            raise NotImplementedError("the stand-in plays one game at a time")
        return BatchedGame(self.game_files)


class BatchedGame:
    def __init__(self, game_files):
        self.game_files = game_files
        self.random_seed = None
        self.house = None

    def seed(self, number):
        self.random_seed = number
        return [number]

    def reset(self):
        with open(self.game_files[0], encoding="utf-8") as handle:
            game = json.load(handle)
        self.house = House(game["house"], game.get("fault"))
        self.house.maybe_fail("load")
        return (self.house.opening(),), self.infos()

    def step(self, commands):
        feedback = self.house.act(commands[0])
        won = self.house.won()
        return (feedback,), (1 if won else 0,), (won,), self.infos()

    def infos(self):
        return {"admissible_commands": [self.house.admissible()], "won": [self.house.won()], "extra.gamefile": [self.game_files[0]]}

    def close(self):
        self.house = None


class House:
    def __init__(self, house, fault):
        self.goal = house["goal"]
        self.receptacles = [entry["name"] for entry in house["receptacles"]]
        self.closed = {entry["name"] for entry in house["receptacles"] if entry.get("closed")}
        self.openable = {entry["name"] for entry in house["receptacles"] if entry.get("openable") or entry.get("closed")}
        self.contents = {name: [] for name in self.receptacles}
        for entry in house["objects"]:
            self.contents[entry["in"]].append(entry["name"])
        self.win = house["win"]
        self.fault = fault
        self.location = None
        self.holding = None
        self.states = {}
        self.lit = set()
        self.steps = 0

    def maybe_fail(self, moment):
        fault = self.fault
        if not fault or fault["on"] != moment or self.steps < fault.get("after", 0):
            return
        if fault["kind"] == "crash":
            os._exit(7)
        if fault["kind"] == "hang":
            time.sleep(3600)
        raise RuntimeError("the game engine failed (a fault the test asked for)")

    def opening(self):
        return (
            "-= Welcome to TextWorld, ALFRED! =-\n\nYou are in the middle of a room. Looking quickly around you, you see "
            + listing(self.receptacles)
            + ".\n\nYour task is to: "
            + self.goal
        )

    def accessible(self, receptacle):
        return receptacle not in self.closed

    def describe(self, receptacle):
        if receptacle in self.closed:
            return "The " + receptacle + " is closed."
        if receptacle in self.openable:
            return "The " + receptacle + " is open. In it, you see " + listing(self.contents[receptacle]) + "."
        return "On the " + receptacle + ", you see " + listing(self.contents[receptacle]) + "."

    def here(self):
        return self.contents.get(self.location, []) if self.location and self.accessible(self.location) else []

    def admissible(self):
        commands = ["go to " + name for name in self.receptacles if name != self.location]
        where = self.location
        if where is not None:
            if where in self.closed:
                commands.append("open " + where)
            elif where in self.openable:
                commands.append("close " + where)
            commands.append("examine " + where)
            if self.accessible(where):
                for thing in self.here():
                    if kind_of(thing) in LAMPS:
                        commands.append("use " + thing)
                    elif self.holding is None:
                        commands.append("take " + thing + " from " + where)
                if self.holding is not None:
                    commands.append("move " + self.holding + " to " + where)
            appliance = APPLIANCES.get(kind_of(where))
            if appliance and self.holding is not None:
                commands.append(appliance[0] + " " + self.holding + " with " + where)
        if self.holding is not None:
            commands.append("examine " + self.holding)
        return commands + ["inventory", "look", "help"]

    def act(self, command):
        self.steps += 1
        self.maybe_fail("step")
        command = " ".join(command.strip().lower().split())
        if command not in self.admissible():
            return "Nothing happens."
        verb = command.split(" ", 1)[0]
        if command.startswith("go to "):
            self.location = command[len("go to "):]
            return "You arrive at " + self.location + ". " + self.describe(self.location)
        if verb == "open":
            self.closed.discard(self.location)
            return "You open the " + self.location + ". " + self.describe(self.location)
        if verb == "close":
            self.closed.add(self.location)
            return "You close the " + self.location + "."
        if verb == "take":
            thing = command[len("take "):].rsplit(" from ", 1)[0]
            self.contents[self.location].remove(thing)
            self.holding = thing
            return "You pick up the " + thing + " from the " + self.location + "."
        if verb == "move":
            thing = self.holding
            self.contents[self.location].append(thing)
            self.holding = None
            return "You move the " + thing + " to the " + self.location + "."
        if verb in ("heat", "cool", "clean"):
            state = next(done for action, done in APPLIANCES.values() if action == verb)
            self.states.setdefault(self.holding, set()).add(state)
            return "You " + verb + " the " + self.holding + " using the " + self.location + "."
        if verb == "use":
            self.lit.add(command[len("use "):])
            return "You turn on the " + command[len("use "):] + "."
        if verb == "examine":
            target = command[len("examine "):]
            if target == self.holding:
                return "There's nothing special about " + target + "."
            return self.describe(target)
        if verb == "inventory":
            return "You are carrying: a " + self.holding + "." if self.holding else "You are not carrying anything."
        if verb == "look":
            if self.location is None:
                return "You are in the middle of a room. Looking quickly around you, you see " + listing(self.receptacles) + "."
            return "You are facing the " + self.location + ". Next to it, you see nothing."
        return "Nothing happens."

    def won(self):
        win = self.win
        if "light" in win:
            lamp_here = any(kind_of(thing) == win["light"] and thing in self.lit for thing in self.here())
            return self.holding is not None and kind_of(self.holding) == win["object"] and lamp_here
        placed = [
            thing
            for receptacle, things in self.contents.items()
            if kind_of(receptacle) == win["receptacle"]
            for thing in things
            if kind_of(thing) == win["object"] and (not win.get("state") or win["state"] in self.states.get(thing, set()))
        ]
        return len(placed) >= win.get("count", 1)
