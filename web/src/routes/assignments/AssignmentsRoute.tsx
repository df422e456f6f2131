import { AdminOnly } from '../../components/AccessGate';
import { AssignmentManager } from '../../domain/assignments/AssignmentManager';

/** SPEC §2, 'Risk Assignment Management' (administrators only). */
export default function AssignmentsRoute() {
  return (
    <AdminOnly>
      <AssignmentManager />
    </AdminOnly>
  );
}
