import type { ArgumentMetadata } from '@nestjs/common';
import { ApiError } from '../errors/api-error';
import { createValidationPipe } from './validation.pipe';

type Metatype = ArgumentMetadata['metatype'];

export type BodyVerdict =
  { accepted: true; value: unknown } | { accepted: false; status: number; fields: Record<string, string[]> };

// Built on first use: the same pipe as the apps' global one (createValidationPipe).
let pipe: ReturnType<typeof createValidationPipe> | undefined;

/**
 * What the apps' validation pipe makes of `body` for the DTO `metatype`: the
 * transformed value, or the status and the field messages of its error. For
 * specs that check a DTO as a request meets it, without an HTTP server.
 */
export async function validateBody(metatype: Metatype, body: unknown): Promise<BodyVerdict> {
  try {
    pipe ??= createValidationPipe();
    return { accepted: true, value: await pipe.transform(body, { type: 'body', metatype }) };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return {
      accepted: false,
      status: error.getStatus(),
      fields: error.infos.fields as Record<string, string[]>,
    };
  }
}

/**
 * `body` checked and transformed as the apps' pipe does for the DTO `metatype` (whitelist,
 * unknown fields refused, types): for a body the route takes as plain JSON and completes
 * first (a generate body with its preset applied); throws the pipe's 400 naming each field.
 */
export async function checkBody<T>(metatype: new () => T, body: unknown): Promise<T> {
  pipe ??= createValidationPipe();
  return (await pipe.transform(body, { type: 'body', metatype })) as T;
}

/** The fields a 400 for `body` names; throws when the body is accepted or refused otherwise. */
export async function refusedFields(metatype: Metatype, body: unknown): Promise<string[]> {
  const verdict = await validateBody(metatype, body);
  if (verdict.accepted) throw new Error(`${JSON.stringify(body)} was accepted`);
  if (verdict.status !== 400) throw new Error(`${JSON.stringify(body)} was refused with ${verdict.status}`);
  return Object.keys(verdict.fields);
}

/** The body as the handler would receive it; throws naming the fields when it is refused. */
export async function acceptedBody(metatype: Metatype, body: unknown): Promise<unknown> {
  const verdict = await validateBody(metatype, body);
  if (!verdict.accepted) throw new Error(`refused: ${JSON.stringify(verdict.fields)}`);
  return verdict.value;
}
