import { AssetDeleted, createEnvelope, type EventEnvelope } from '@genasset/contracts';
import { waitFor, type Tenant } from '@genasset/testing';
import { startCollectionHarness, type CollectionHarness } from './support/collection-harness';

describe('collections follow asset deletion (asset.deleted facts)', () => {
  let h: CollectionHarness;
  let a: Tenant;
  beforeAll(async () => {
    h = await startCollectionHarness();
    a = await h.tenant();
  });
  afterAll(() => h?.close());

  const details = async (id: string) =>
    (await h.request('GET', `/v1/collections/${id}`, { auth: a.auth.projectMember })).body.collection;
  const add = (id: string, assetIds: string[]) =>
    h.request('PUT', `/v1/collections/${id}/assets`, { auth: a.auth.projectMember, body: { assetIds } });
  const inboxRows = async (eventId: string) =>
    (await h.db.query('SELECT 1 FROM collections.inbox_events WHERE event_id = $1', [eventId])).length;
  /** The collection-service's record of a deleted asset: written with the effect, in the inbox transaction. */
  const deletionApplied = (assetId: string) => async () =>
    (await h.db.query('SELECT 1 FROM collections.deleted_assets WHERE asset_id = $1', [assetId])).length ===
    1;
  const deletedFact = (assetId: string): EventEnvelope =>
    createEnvelope(
      AssetDeleted,
      { assetId, teamId: a.teamId, projectId: a.projectId, type: 'uploaded', privacy: 'private' },
      { producer: 'test' },
    );

  it('removes a deleted asset from every collection, fixes the counts and clears its thumbnail', async () => {
    const [gone, stays] = [await h.createAsset(a), await h.createAsset(a)];
    const first = await h.createCollection(a, 'first');
    const second = await h.createCollection(a, 'second');
    await add(first.id, [gone, stays]);
    await add(second.id, [gone]);
    await h.request('PUT', `/v1/collections/${second.id}`, {
      auth: a.auth.projectMember,
      body: { thumbnail: gone },
    });

    await h.deleteAsset(a, gone);
    await waitFor(deletionApplied(gone), { what: `asset.deleted of ${gone} applied` });

    expect(await details(first.id)).toMatchObject({ assetCount: 1, itemCount: 1 });
    const after = await details(second.id);
    expect(after).toMatchObject({ assetCount: 0, itemCount: 0 });
    expect(after).not.toHaveProperty('thumbnail');
    const rows = await h.db.query<{ collection_id: string; asset_id: string }>(
      'SELECT collection_id, asset_id FROM collections.collection_assets WHERE collection_id = ANY($1) ORDER BY collection_id',
      [[first.id, second.id]],
    );
    expect(rows).toEqual([{ collection_id: first.id, asset_id: stays }]);
  });

  it('applies a redelivered fact once: the inbox holds it once and the counts do not move again', async () => {
    const assetId = await h.createAsset(a);
    const c = await h.createCollection(a);
    await add(c.id, [assetId, await h.createAsset(a)]);
    const fact = deletedFact(assetId);
    await h.facts.publish(fact);
    await waitFor(async () => (await inboxRows(fact.id)) === 1, { what: 'first delivery applied' });
    const once = await details(c.id);
    expect(once).toMatchObject({ assetCount: 1 });

    await h.facts.publish(fact);
    // A later fact for the same asset (same key, so same partition, after the redelivery) marks when it was handled.
    const marker = deletedFact(assetId);
    await h.facts.publish(marker);
    await waitFor(async () => (await inboxRows(marker.id)) === 1, { what: 'marker applied' });

    expect(await inboxRows(fact.id)).toBe(1);
    expect(await details(c.id)).toEqual(once);
  });

  it('refuses to add an asset whose deletion it has applied, even if the owner answered before the deletion', async () => {
    const assetId = await h.createAsset(a);
    const c = await h.createCollection(a);
    // The fact overtakes the add: asset-service still counted the asset as existing when asked.
    const fact = deletedFact(assetId);
    await h.facts.publish(fact);
    await waitFor(deletionApplied(assetId), { what: 'fact applied' });
    const res = await add(c.id, [assetId]);
    expect(res).toMatchObject({ status: 404, body: { error: `asset ${assetId} not found` } });
    expect(await details(c.id)).toMatchObject({ assetCount: 0 });
    const thumb = await h.request('PUT', `/v1/collections/${c.id}`, {
      auth: a.auth.projectMember,
      body: { thumbnail: assetId },
    });
    expect(thumb.status).toBe(404);
  });

  it('answers 404 for an asset already deleted through its owner', async () => {
    const assetId = await h.createAsset(a);
    await h.deleteAsset(a, assetId);
    const c = await h.createCollection(a);
    // asset-service no longer has it, whether or not its fact has arrived yet.
    expect((await add(c.id, [assetId])).status).toBe(404);
    // Let the fact land before the harness stops, so teardown interrupts nothing.
    await waitFor(deletionApplied(assetId), { what: 'fact applied' });
  });
});
