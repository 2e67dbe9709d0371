import { useMemo } from 'react';
import { useFetchClient } from '@strapi/strapi/admin';
import { ADMIN_PATHS, type AdminAnswers } from '../../../shared/admin-api';

/**
 * The plugin's admin routes, typed by the answers the server declares (shared/admin-api.ts): the
 * one place the admin's panels and pages call the server from. Each resolves to the answer's body
 * and rejects with the fetch client's error (whose body is the contract's error shape).
 */
export function useArtikelApi() {
  const { get, post, del } = useFetchClient();
  return useMemo(
    () => ({
      revisions: async (documentId: string) => (await get<AdminAnswers['revisions']>(ADMIN_PATHS.revisions(documentId))).data,
      revision: async (documentId: string, number: number, against?: number) =>
        (await get<AdminAnswers['revision']>(ADMIN_PATHS.revision(documentId, number, against))).data,
      restoreRevision: async (documentId: string, number: number): Promise<void> => {
        await post(ADMIN_PATHS.restoreRevision(documentId, number));
      },
      trash: async () => (await get<AdminAnswers['trash']>(ADMIN_PATHS.trash())).data,
      trashSettings: async () => (await get<AdminAnswers['trashSettings']>(ADMIN_PATHS.trashSettings())).data,
      restoreFromTrash: async (documentId: string) =>
        (await post<AdminAnswers['restoredFromTrash']>(ADMIN_PATHS.restoreFromTrash(documentId))).data,
      purge: async (documentId: string): Promise<void> => {
        await del(ADMIN_PATHS.trashEntry(documentId));
      },
      emptyTrash: async () => (await del<AdminAnswers['emptiedTrash']>(ADMIN_PATHS.trash())).data,
      views: async (documentId: string) => (await get<AdminAnswers['views']>(ADMIN_PATHS.views(documentId))).data,
      mostRead: async () => (await get<AdminAnswers['mostRead']>(ADMIN_PATHS.mostRead())).data,
    }),
    [get, post, del],
  );
}

export type ArtikelApi = ReturnType<typeof useArtikelApi>;
