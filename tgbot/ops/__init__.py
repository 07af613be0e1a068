"""Operations: configuration, connections, logs without secrets, metrics and the release step."""
