/**
 * Which assets a read may return. Writes always act on one project; reads
 * may also see what is published: `public` and `unlisted` assets of any
 * organisation by id, `public` ones in lists.
 */
export type ReadScope = { kind: 'project'; projectId: string } | { kind: 'public' };

/** Privacy values readable by id outside the owning project. */
export const READABLE_BY_ID = ['public', 'unlisted'] as const;
