from .alfred_tw_env import AlfredTWEnv


def get_environment(kind):
    if kind == "AlfredTWEnv":
        return AlfredTWEnv
    raise NotImplementedError("environment type not available in the stand-in: " + str(kind))
