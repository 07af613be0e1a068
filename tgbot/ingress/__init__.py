"""Ingress: where Telegram updates come in (the webhook, or polling) and wait in their room's
inbox for a worker."""
