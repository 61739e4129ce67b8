import { PATH_METADATA } from '@nestjs/common/constants';
import type { INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';

const ROUTE_CONFIG_PATCH = Symbol('routeConfigPatch');

type Config = Record<string, unknown>;

/**
 * Adds keys to the Fastify route config of a route, or of every route of a
 * controller, which Fastify hooks read before Nest runs (the body limit, the
 * early authentication of libs/auth). Unlike `@RouteConfig`, which replaces
 * the whole config and reads the method only, patches add up, a class's apply
 * to every method (a method's own keys win), and methods a controller gains
 * after its decorators ran (the generate routes) are covered:
 * {@link applyRouteConfigPatches} merges them when the app is created.
 */
export function RouteConfigPatch(patch: Config): ClassDecorator & MethodDecorator {
  return (target: object, _key?: string | symbol, descriptor?: PropertyDescriptor) => {
    const holder = (descriptor?.value ?? target) as object;
    const current = (Reflect.getOwnMetadata(ROUTE_CONFIG_PATCH, holder) as Config | undefined) ?? {};
    Reflect.defineMetadata(ROUTE_CONFIG_PATCH, { ...patch, ...current }, holder);
  };
}

/**
 * Merges every controller's patches into the route config Nest hands Fastify.
 * Runs on the created app before `init()` registers the routes.
 */
export function applyRouteConfigPatches(app: INestApplication): void {
  for (const module of app.get(ModulesContainer).values()) {
    for (const { metatype } of module.controllers.values()) {
      if (typeof metatype !== 'function') continue;
      const fromClass = (Reflect.getMetadata(ROUTE_CONFIG_PATCH, metatype) as Config | undefined) ?? {};
      const prototype = metatype.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const method = Object.getOwnPropertyDescriptor(prototype, name)?.value as object | undefined;
        if (name === 'constructor' || typeof method !== 'function') continue;
        if (Reflect.getMetadata(PATH_METADATA, method) === undefined) continue;
        const fromMethod = (Reflect.getOwnMetadata(ROUTE_CONFIG_PATCH, method) as Config | undefined) ?? {};
        if (Object.keys(fromClass).length + Object.keys(fromMethod).length === 0) continue;
        const own = (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, method) as Config | undefined) ?? {};
        Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...fromClass, ...fromMethod, ...own }, method);
      }
    }
  }
}
