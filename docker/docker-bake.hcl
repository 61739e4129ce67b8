# Builds every image from docker/Dockerfile and the repository root with one builder, so the
# stages every app shares (base, deps) are built once:
#   docker buildx bake -f docker/docker-bake.hcl                  # genasset/<app>:dev
#   TAG=0.1.0 REGISTRY=ghcr.io/acme/ docker buildx bake -f docker/docker-bake.hcl --push
#   docker buildx bake -f docker/docker-bake.hcl platform         # one image
# One target, forked by its matrix into one target per app (named after it): each passes APP (the
# app under apps/) and the Dockerfile target of its kind (tools/deploy/images.ts lists the same).
variable "REGISTRY" { default = "" }
variable "TAG" { default = "dev" }

group "default" {
  targets = ["app"]
}

target "app" {
  name = image.app
  matrix = {
    image = [
      { app = "asset-service", target = "service", description = "Assets: upload, list, canvases, tags, downloads and archive exports; serves the web console" },
      { app = "collection-service", target = "service", description = "Collections of assets and models" },
      { app = "generation-service", target = "service", description = "Generation requests (validation, cost, dry runs) and models" },
      { app = "inference-worker", target = "service", description = "Runs generation, training and export engines (sharp image engine built in)" },
      { app = "job-service", target = "service", description = "Jobs, creative-unit ledger, credit alerts and the operator admin API" },
      { app = "webhook-dispatcher", target = "service", description = "Webhook endpoints and signed, retried deliveries" },
      { app = "platform", target = "platform", description = "Every service in one process (embedded mode unless DATABASE_URL, KAFKA_BROKERS and S3_* are set)" },
      { app = "cli", target = "cli", description = "Operator commands: migrate, topics, admin, webhook receiver tools" },
    ]
  }
  context    = "."
  dockerfile = "docker/Dockerfile"
  platforms  = ["linux/amd64"]
  target     = image.target
  args       = { APP = image.app }
  labels     = { "org.opencontainers.image.description" = image.description }
  tags       = ["${REGISTRY}genasset/${image.app}:${TAG}"]
}
