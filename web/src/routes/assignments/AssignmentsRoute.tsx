import { useLoaderData } from 'react-router';
import { AdminOnly } from '../../shell/AccessGate';
import { AssignmentManager } from '../../domain/assignments/AssignmentManager';
import type { AssignmentsPrepared } from './assignmentsLoader';

/** SPEC §2, 'Risk Assignment Management' (administrators only). */
export default function AssignmentsRoute() {
  const prepared = useLoaderData() as AssignmentsPrepared | null;
  return (
    <AdminOnly>
      <AssignmentManager prepared={prepared?.assignments} />
    </AdminOnly>
  );
}
