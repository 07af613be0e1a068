"""Games other than Hintrigue, each a pure package of its own rules that the shared table runs."""
