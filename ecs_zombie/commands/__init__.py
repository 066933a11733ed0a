"""The `ecs-zombie` command's sub-commands, by concern; `cli.py` assembles them."""
