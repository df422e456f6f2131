// The REST presenters of an upload: its status (GET /api/upload-status/{id})
// and its history entry (GET /api/uploads), in SPEC §7's names.
import type { Upload, User } from '../../generated/prisma/client.js';
import { statusLabel } from '../../services/uploads/uploads.js';

/** GET /api/upload-status/{id}: SPEC §7's status, recordCount, errorMessage, and the rest of the progress. */
export function uploadStatusJson(u: Upload) {
  return {
    status: u.status,
    statusLabel: statusLabel(u),
    recordCount: u.recordCount,
    errorMessage: u.errorMessage,
    warnings: u.warnings,
    rowsProcessed: u.rowsProcessed,
    bytesProcessed: Number(u.bytesProcessed),
    sizeBytes: Number(u.sizeBytes),
    duplicatesSkipped: u.duplicatesSkipped,
  };
}

export function uploadJson(u: Upload & { uploadedBy?: User | null }) {
  return {
    id: u.id,
    originalName: u.originalName,
    fileName: u.fileName,
    sizeBytes: Number(u.sizeBytes),
    recordCount: u.recordCount,
    status: u.status,
    statusLabel: statusLabel(u),
    warnings: u.warnings,
    sourceLayout: u.sourceLayout,
    errorMessage: u.errorMessage,
    mode: u.mode,
    skipDuplicates: u.skipDuplicates,
    batchSize: u.batchSize,
    emailNotification: u.emailNotification,
    rowsProcessed: u.rowsProcessed,
    bytesProcessed: Number(u.bytesProcessed),
    duplicatesSkipped: u.duplicatesSkipped,
    columnMapping: u.columnMapping,
    unknownColumns: u.unknownColumns,
    live: u.live,
    createdAt: u.createdAt,
    startedAt: u.startedAt,
    completedAt: u.completedAt,
    uploadedBy: u.uploadedBy ? { id: u.uploadedBy.id, firstName: u.uploadedBy.firstName, lastName: u.uploadedBy.lastName, email: u.uploadedBy.email } : null,
  };
}
