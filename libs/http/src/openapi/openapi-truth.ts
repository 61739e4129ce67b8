import type { INestApplication, Type } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';

// Corrections that make the generated document say what the app does.

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'] as const;

/**
 * An operation that declares no security scheme is public (authenticated routes
 * declare `Authorizer` through `@Authenticated()`). OpenAPI 3 would otherwise
 * make it inherit the document-wide requirement, so it says `security: []`.
 */
export function declarePublicOperations(document: OpenAPIObject): void {
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation && operation.security === undefined) operation.security = [];
    }
  }
}

/**
 * A `{name}` path segment is always a required string; a parameter documented
 * by name and description only (`@ApiParam({ name, description })`) would
 * otherwise say nothing of its type.
 */
export function typePathParameters(document: OpenAPIObject): void {
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      for (const parameter of item[method]?.parameters ?? []) {
        if (!('in' in parameter) || parameter.in !== 'path') continue;
        parameter.required = true;
        const schema = (parameter.schema ?? {}) as Record<string, unknown>;
        if (
          schema.type === undefined &&
          schema.$ref === undefined &&
          !schema.oneOf &&
          !schema.allOf &&
          !schema.anyOf
        ) {
          parameter.schema = { ...schema, type: 'string' };
        }
      }
    }
  }
}

/** Metadata of a handler that takes its body as plain JSON and checks it whole against a DTO itself (checkBody). */
export const CHECKED_BODY_METADATA = 'genasset:checked-body';

/**
 * Names of the DTO classes that the global validation pipe checks as a whole
 * request body (`@Body() body: Dto`, no property name, no route pipe), or that
 * a handler checks its whole body against with the same pipe (`checkBody`,
 * declared by CHECKED_BODY_METADATA). The pipe runs with `forbidNonWhitelisted`,
 * so those bodies refuse unknown properties. A body taken as `unknown` or
 * `Record<…>` and checked otherwise is not listed.
 */
export function validatedBodyModels(app: INestApplication): Set<string> {
  const names = new Set<string>();
  let modules: ModulesContainer;
  try {
    modules = app.get(ModulesContainer);
  } catch {
    return names;
  }
  for (const module of modules.values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type | undefined;
      if (!controller?.prototype) continue;
      const proto = controller.prototype as object;
      for (const key of Object.getOwnPropertyNames(proto)) {
        if (key === 'constructor') continue;
        const checked = Reflect.getMetadata(CHECKED_BODY_METADATA, proto, key) as Type | undefined;
        if (checked) names.add(checked.name);
        const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, key) as
          Record<string, { index: number; data?: unknown; pipes?: unknown[] }> | undefined;
        if (!args) continue;
        const types = (Reflect.getMetadata('design:paramtypes', proto, key) ?? []) as unknown[];
        for (const [argKey, arg] of Object.entries(args)) {
          if (Number(argKey.split(':')[0]) !== RouteParamtypes.BODY) continue;
          if (arg.data !== undefined || (arg.pipes?.length ?? 0) > 0) continue;
          const type = types[arg.index];
          if (typeof type === 'function' && type !== Object && type.prototype) names.add(type.name);
        }
      }
    }
  }
  return names;
}

/**
 * Marks the component schemas of validated request bodies (see
 * validatedBodyModels) `additionalProperties: false`, unless the schema says
 * otherwise itself or also describes a response (a response may grow fields).
 */
export function closeValidatedBodies(document: OpenAPIObject, models: ReadonlySet<string>): void {
  const schemas = document.components?.schemas ?? {};
  const inResponses = new Set<string>();
  const collect = (value: unknown, into: Set<string>): void => {
    if (Array.isArray(value)) return value.forEach((entry) => collect(entry, into));
    if (value === null || typeof value !== 'object') return;
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') {
        const name = child.replace('#/components/schemas/', '');
        if (!into.has(name)) {
          into.add(name);
          collect(schemas[name], into);
        }
      } else collect(child, into);
    }
  };
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) collect(item[method]?.responses, inResponses);
  }
  for (const name of models) {
    const schema = schemas[name] as Record<string, unknown> | undefined;
    if (!schema || '$ref' in schema || inResponses.has(name)) continue;
    if (schema.type !== 'object' || schema.additionalProperties !== undefined) continue;
    schema.additionalProperties = false;
  }
}
