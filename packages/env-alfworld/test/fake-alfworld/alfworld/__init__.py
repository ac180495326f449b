"""A stand-in for the `alfworld` package, written for SkillOpt's tests: the exact API the bridge
calls (get_environment -> AlfredTWEnv(config, train_eval) -> init_env(batch_size) -> seed, reset,
step, close), over a deterministic text game of our own. It is not ALFWorld."""

__version__ = "0.0.0-skillopt-fake"
