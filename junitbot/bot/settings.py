"""BotSettings: how the bot behaves on GitHub; defined in `junitbot.config` as the `bot:` section."""

from __future__ import annotations

from junitbot.config import ApiSettings, BotSettings

__all__ = ["ApiSettings", "BotSettings"]
