# Builds every image from the repository root with one builder, so the stages
# the Dockerfiles share (base, deps) are built once:
#   docker buildx bake -f docker/docker-bake.hcl                  # genasset/<app>:dev
#   TAG=0.1.0 REGISTRY=ghcr.io/acme/ docker buildx bake -f docker/docker-bake.hcl --push
variable "REGISTRY" { default = "" }
variable "TAG" { default = "dev" }

group "default" {
  targets = ["asset-service", "collection-service", "generation-service", "inference-worker", "job-service", "webhook-dispatcher", "platform", "cli"]
}

target "_app" {
  context   = "."
  platforms = ["linux/amd64"]
}

target "asset-service" {
  inherits   = ["_app"]
  dockerfile = "docker/asset-service.Dockerfile"
  tags       = ["${REGISTRY}genasset/asset-service:${TAG}"]
}

target "collection-service" {
  inherits   = ["_app"]
  dockerfile = "docker/collection-service.Dockerfile"
  tags       = ["${REGISTRY}genasset/collection-service:${TAG}"]
}

target "generation-service" {
  inherits   = ["_app"]
  dockerfile = "docker/generation-service.Dockerfile"
  tags       = ["${REGISTRY}genasset/generation-service:${TAG}"]
}

target "inference-worker" {
  inherits   = ["_app"]
  dockerfile = "docker/inference-worker.Dockerfile"
  tags       = ["${REGISTRY}genasset/inference-worker:${TAG}"]
}

target "job-service" {
  inherits   = ["_app"]
  dockerfile = "docker/job-service.Dockerfile"
  tags       = ["${REGISTRY}genasset/job-service:${TAG}"]
}

target "webhook-dispatcher" {
  inherits   = ["_app"]
  dockerfile = "docker/webhook-dispatcher.Dockerfile"
  tags       = ["${REGISTRY}genasset/webhook-dispatcher:${TAG}"]
}

target "platform" {
  inherits   = ["_app"]
  dockerfile = "docker/platform.Dockerfile"
  tags       = ["${REGISTRY}genasset/platform:${TAG}"]
}

target "cli" {
  inherits   = ["_app"]
  dockerfile = "docker/cli.Dockerfile"
  tags       = ["${REGISTRY}genasset/cli:${TAG}"]
}
