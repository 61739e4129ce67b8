import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { get, send } from '../api/api-client';
import type { Collection } from '../api/types';
import { useAction, useApi } from '../api/use-api';
import { ErrorMessage } from '../components/error-message';
import { formatDate } from '../components/format';

interface CollectionList {
  collections: Collection[];
  nextPaginationToken?: string;
}

export function CollectionsPage() {
  const [token, setToken] = useState<string>();
  const list = useApi(
    () => get<CollectionList>('/v1/collections', { pageSize: 50, paginationToken: token }),
    token ?? '',
  );
  const [name, setName] = useState('');
  const [confirming, setConfirming] = useState<string>();
  const create = useAction(async () => {
    await send('POST', '/v1/collections', { name });
    setName('');
    list.reload();
  });
  const remove = useAction(async (id: string) => {
    await send('DELETE', `/v1/collections/${id}`);
    setConfirming(undefined);
    list.reload();
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void create.run();
  };

  return (
    <section>
      <h1>Collections</h1>
      <form onSubmit={submit} className="inline-form">
        <div className="field">
          <label htmlFor="collection-name">New collection name</label>
          <input
            id="collection-name"
            required
            maxLength={256}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <button type="submit" disabled={create.pending}>
          Create collection
        </button>
      </form>
      <ErrorMessage error={create.error} />
      <ErrorMessage error={list.error ?? remove.error} />
      {list.data && list.data.collections.length === 0 && <p className="muted">No collections yet.</p>}
      {list.data && list.data.collections.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Collections</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Assets</th>
                <th scope="col">Models</th>
                <th scope="col">Updated</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.collections.map((c) => (
                <tr key={c.id}>
                  <td>
                    <Link to={`/assets?collectionId=${c.id}`}>{c.name}</Link>
                  </td>
                  <td>{c.assetCount}</td>
                  <td>{c.modelCount}</td>
                  <td>{formatDate(c.updatedAt)}</td>
                  <td>
                    {confirming === c.id ? (
                      <>
                        <button type="button" className="danger" onClick={() => void remove.run(c.id)}>
                          Confirm delete {c.name}
                        </button>{' '}
                        <button type="button" className="secondary" onClick={() => setConfirming(undefined)}>
                          Keep
                        </button>
                      </>
                    ) : (
                      <button
                        type="button"
                        className="secondary"
                        aria-label={`Delete ${c.name}`}
                        onClick={() => setConfirming(c.id)}
                      >
                        Delete
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="actions">
        {token && (
          <button type="button" className="secondary" onClick={() => setToken(undefined)}>
            First page
          </button>
        )}
        {list.data?.nextPaginationToken && (
          <button
            type="button"
            className="secondary"
            onClick={() => setToken(list.data?.nextPaginationToken)}
          >
            Next page
          </button>
        )}
      </div>
      <p className="muted">Deleting a collection keeps its assets and models.</p>
    </section>
  );
}
