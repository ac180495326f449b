import type { WorkspaceFile } from '@skillopt/contract';
import { createDataInvalidError } from '@skillopt/env-kit';
import { DocumentToolError, type ItemDocument, readDocumentText } from './corpus.js';

/** The folder of an agent's workspace that holds the item's documents, under their own names. */
const AGENT_DOCUMENTS_FOLDER = 'documents';

/**
 * The item's own documents as files of the agent's workspace (`documents/<name>`): copies of those
 * files alone, never the corpus or the split folders, read with the tools' checks (a link out of
 * its folder is refused). A document that cannot be read is the data's fault, not the agent's.
 */
export async function itemDocumentFiles(itemId: string, documents: readonly ItemDocument[]): Promise<WorkspaceFile[]> {
  const files: WorkspaceFile[] = [];
  for (const document of documents) {
    try {
      files.push({ path: `${AGENT_DOCUMENTS_FOLDER}/${document.name}`, content: await readDocumentText(document) });
    } catch (error) {
      if (!(error instanceof DocumentToolError)) throw error;
      throw createDataInvalidError(`officeqa item ${itemId}: ${error.message}`, { id: itemId, document: document.name }, error);
    }
  }
  return files;
}
