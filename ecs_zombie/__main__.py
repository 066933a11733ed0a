"""`python -m ecs_zombie`: the `ecs-zombie` command."""

from ecs_zombie.cli import main

main()
