"""SkillOpt's bridge to ALFWorld: one game at a time, driven over JSON lines.

Started by @skillopt/env-alfworld with the Python that has `alfworld` installed. Each line on
stdin is one request, each line written to the protocol channel (the original stdout) is the reply
to it, carrying the request's `id`:

  {"id": 1, "op": "load", "gamefile": "/abs/…/game.tw-pddl", "data_root": "/abs/…", "seed": 42,
   "max_steps": 50, "config_file": ""}
      -> {"id": 1, "ok": true, "observation": "...", "admissible": [...], "won": false, "done": false, "score": 0}
  {"id": 2, "op": "step", "action": "go to drawer 1"}
      -> {"id": 2, "ok": true, "observation": "...", "admissible": [...], "won": false, "done": false, "score": 0}
  {"id": 3, "op": "close"}  -> {"id": 3, "ok": true}, then the bridge exits.

A request that fails gets {"id": n, "ok": false, "error": {"type": "...", "message": "..."}}. On
start the bridge writes {"ready": true, ...versions} once `alfworld` has been imported, or
{"ready": false, "error": {...}} and exits 3 when it cannot be.
"""

import json
import os
import sys


def open_protocol_channel():
    # ALFWorld and TextWorld print progress to stdout, some of it from below Python. The replies
    # get a duplicate of the original stdout; stdout itself then points at stderr.
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return channel


CHANNEL = open_protocol_channel()


def send(message):
    CHANNEL.write(json.dumps(message, ensure_ascii=False) + "\n")
    CHANNEL.flush()


def first(values):
    """The single game's entry of a batched value (TextWorld batches even one game)."""
    if isinstance(values, (list, tuple)):
        return values[0] if values else None
    return values


def built_in_config(data_root, max_steps):
    """ALFWorld's TextWorld settings for playing one game as the benchmark does: no domain
    randomisation, every task type, the templated goal texts (not the human annotations)."""
    return {
        "dataset": {"data_path": "", "eval_id_data_path": "", "eval_ood_data_path": "", "num_train_games": -1, "num_eval_games": -1},
        "logic": {
            "domain": os.path.join(data_root, "logic", "alfred.pddl"),
            "grammar": os.path.join(data_root, "logic", "alfred.twl2"),
        },
        "env": {
            "type": "AlfredTWEnv",
            "regen_game_files": False,
            "domain_randomization": False,
            "task_types": [1, 2, 3, 4, 5, 6],
            "expert_timeout_steps": 150,
            "expert_type": "handcoded",
            "goal_desc_human_anns_prob": 0.0,
        },
        "general": {"random_seed": 42, "training_method": "dagger", "observation_pool_capacity": 3, "hide_init_receptacles": False},
        "dagger": {"training": {"max_nb_steps_per_episode": max_steps}},
        "rl": {"training": {"max_nb_steps_per_episode": max_steps}},
    }


def read_config(request):
    config_file = request.get("config_file") or ""
    if config_file:
        import yaml  # ALFWorld depends on PyYAML, so it is there whenever alfworld is.

        with open(config_file, encoding="utf-8") as handle:
            config = yaml.safe_load(handle)
    else:
        config = built_in_config(request["data_root"], request["max_steps"])
    # Only the game being played: ALFWorld collects the games under the data path it is given,
    # and the folder of one game holds exactly that game.
    game_folder = os.path.dirname(request["gamefile"])
    config.setdefault("dataset", {})
    for key in ("data_path", "eval_id_data_path", "eval_ood_data_path"):
        config["dataset"][key] = game_folder
    return config


class Game:
    def __init__(self, get_environment, request):
        gamefile = request["gamefile"]
        if not os.path.isfile(gamefile):
            raise FileNotFoundError("no game file at " + gamefile)
        config = read_config(request)
        environment_class = get_environment(config.get("env", {}).get("type", "AlfredTWEnv"))
        self.world = environment_class(config, train_eval="train")
        self.world.game_files = [gamefile]
        self.world.num_games = 1
        self.environment = self.world.init_env(batch_size=1)
        self.environment.seed(int(request.get("seed", 42)))
        observations, infos = self.environment.reset()
        self.state = self.describe(observations, infos, [0], [False])

    def describe(self, observations, infos, scores, dones):
        admissible = first(infos.get("admissible_commands")) or []
        return {
            "observation": str(first(observations) or ""),
            "admissible": [str(command) for command in admissible],
            "won": bool(first(infos.get("won")) or False),
            "done": bool(first(dones) or False),
            "score": float(first(scores) or 0),
        }

    def step(self, action):
        observations, scores, dones, infos = self.environment.step([action])
        self.state = self.describe(observations, infos, scores, dones)
        return self.state

    def close(self):
        close = getattr(self.environment, "close", None)
        if close is not None:
            close()


def main():
    try:
        import alfworld
        from alfworld.agents.environment import get_environment
    except Exception as error:  # an ImportError, or a broken install failing on import
        send({"ready": False, "error": {"type": type(error).__name__, "message": str(error)}})
        return 3
    send({"ready": True, "python": sys.version.split()[0], "alfworld": str(getattr(alfworld, "__version__", "unknown"))})

    game = None
    for line in sys.stdin:
        if not line.strip():
            continue
        request_id = None
        try:
            request = json.loads(line)
            request_id = request.get("id")
            operation = request.get("op")
            if operation == "load":
                if game is not None:
                    game.close()
                    game = None
                game = Game(get_environment, request)
                send(dict(game.state, id=request_id, ok=True))
            elif operation == "step":
                if game is None:
                    raise RuntimeError("no game is loaded")
                send(dict(game.step(str(request["action"])), id=request_id, ok=True))
            elif operation == "close":
                if game is not None:
                    game.close()
                send({"id": request_id, "ok": True})
                return 0
            else:
                raise ValueError("unknown op " + repr(operation))
        except Exception as error:
            send({"id": request_id, "ok": False, "error": {"type": type(error).__name__, "message": str(error)}})
    if game is not None:
        game.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
