# Builds every image from docker/Dockerfile and the repository root with one builder, so the
# stages every app shares (base, deps) are built once:
#   docker buildx bake -f docker/docker-bake.hcl                  # genasset/<app>:dev
#   TAG=0.1.0 REGISTRY=ghcr.io/acme/ docker buildx bake -f docker/docker-bake.hcl --push
# Each target passes APP (the app under apps/) and the Dockerfile target of its kind.
variable "REGISTRY" { default = "" }
variable "TAG" { default = "dev" }

group "default" {
  targets = ["asset-service", "collection-service", "generation-service", "inference-worker", "job-service", "webhook-dispatcher", "platform", "cli"]
}

target "_app" {
  context    = "."
  dockerfile = "docker/Dockerfile"
  platforms  = ["linux/amd64"]
}

target "asset-service" {
  inherits = ["_app"]
  target   = "service"
  args     = { APP = "asset-service" }
  labels   = { "org.opencontainers.image.description" = "Assets: upload, list, canvases, tags, downloads and archive exports; serves the web console" }
  tags     = ["${REGISTRY}genasset/asset-service:${TAG}"]
}

target "collection-service" {
  inherits = ["_app"]
  target   = "service"
  args     = { APP = "collection-service" }
  labels   = { "org.opencontainers.image.description" = "Collections of assets and models" }
  tags     = ["${REGISTRY}genasset/collection-service:${TAG}"]
}

target "generation-service" {
  inherits = ["_app"]
  target   = "service"
  args     = { APP = "generation-service" }
  labels   = { "org.opencontainers.image.description" = "Generation requests (validation, cost, dry runs) and models" }
  tags     = ["${REGISTRY}genasset/generation-service:${TAG}"]
}

target "inference-worker" {
  inherits = ["_app"]
  target   = "service"
  args     = { APP = "inference-worker" }
  labels   = { "org.opencontainers.image.description" = "Runs generation, training and export engines (sharp image engine built in)" }
  tags     = ["${REGISTRY}genasset/inference-worker:${TAG}"]
}

target "job-service" {
  inherits = ["_app"]
  target   = "service"
  args     = { APP = "job-service" }
  labels   = { "org.opencontainers.image.description" = "Jobs, creative-unit ledger, credit alerts and the operator admin API" }
  tags     = ["${REGISTRY}genasset/job-service:${TAG}"]
}

target "webhook-dispatcher" {
  inherits = ["_app"]
  target   = "service"
  args     = { APP = "webhook-dispatcher" }
  labels   = { "org.opencontainers.image.description" = "Webhook endpoints and signed, retried deliveries" }
  tags     = ["${REGISTRY}genasset/webhook-dispatcher:${TAG}"]
}

target "platform" {
  inherits = ["_app"]
  target   = "platform"
  args     = { APP = "platform" }
  labels   = { "org.opencontainers.image.description" = "Every service in one process (embedded mode unless DATABASE_URL, KAFKA_BROKERS and S3_* are set)" }
  tags     = ["${REGISTRY}genasset/platform:${TAG}"]
}

target "cli" {
  inherits = ["_app"]
  target   = "cli"
  args     = { APP = "cli" }
  labels   = { "org.opencontainers.image.description" = "Operator commands: migrate, topics, admin, webhook receiver tools" }
  tags     = ["${REGISTRY}genasset/cli:${TAG}"]
}
