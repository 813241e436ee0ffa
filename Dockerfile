# duelhall: the gRPC match service (docs/operations.md "Containers").
# Build stage: install the package and its dependencies into a virtual environment.
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md alembic.ini ./
COPY engine engine
COPY eventstore eventstore
COPY replays replays
COPY services services
RUN python -m venv /opt/duelhall \
    && /opt/duelhall/bin/pip install --no-cache-dir . \
    && /opt/duelhall/bin/pip uninstall --yes pip

# Run stage: the environment only, as an unprivileged user.
FROM python:3.11-slim
RUN groupadd --system --gid 10001 duelhall \
    && useradd --system --no-log-init --uid 10001 --gid 10001 --create-home --home-dir /var/lib/duelhall duelhall
COPY --from=build /opt/duelhall /opt/duelhall
ENV PATH=/opt/duelhall/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    DUELHALL_LISTEN=0.0.0.0:50051 \
    DUELHALL_HTTP=0.0.0.0:8080 \
    DUELHALL_DATABASE_URL=sqlite:////var/lib/duelhall/duelhall.db \
    DUELHALL_LOG_FORMAT=json
USER 10001:10001
WORKDIR /var/lib/duelhall
VOLUME /var/lib/duelhall
EXPOSE 50051 8080 9090
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 CMD ["duelhall", "health"]
ENTRYPOINT ["duelhall"]
CMD ["serve"]
