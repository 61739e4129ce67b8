#!/usr/bin/env bash
# Applies an overlay in the order the platform needs:
#   1. namespace and configuration,
#   2. the topic and migration Jobs (replaced: a Job's pod template is immutable),
#      waiting for each to complete,
#   3. everything else (services, autoscalers, disruption budgets, routes).
# Usage: deploy/k8s/apply.sh deploy/k8s/overlays/production [extra kubectl args]
# Secrets must exist first (docs/runbook.md, "Secrets").
set -euo pipefail
overlay=${1:?usage: apply.sh <overlay directory> [kubectl args]}
shift
rendered=$(mktemp)
trap 'rm -f "$rendered"' EXIT
kubectl kustomize "$overlay" > "$rendered"
namespace=$(sed -n 's/^namespace: *//p' "$overlay/kustomization.yaml")
ns_args=()
[[ -n "$namespace" ]] && ns_args=(--namespace "$namespace")

echo "== namespace and configuration"
kubectl apply "$@" -f "$rendered" --selector 'app.kubernetes.io/component=config'

echo "== topics and migrations"
kubectl delete "$@" "${ns_args[@]}" job --selector 'app.kubernetes.io/component in (topics,migration)' --ignore-not-found --wait=true
kubectl apply "$@" -f "$rendered" --selector 'app.kubernetes.io/component in (topics,migration)'
kubectl wait "$@" "${ns_args[@]}" job --selector 'app.kubernetes.io/component in (topics,migration)' --for=condition=complete --timeout=15m

echo "== services, autoscaling and routes"
kubectl apply "$@" -f "$rendered"
kubectl rollout status "$@" "${ns_args[@]}" deployment --selector 'app.kubernetes.io/part-of=genasset' --timeout=10m
