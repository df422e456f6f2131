import { AdminOnly } from '../../components/AccessGate';
import { NotAvailableYet } from '../../components/NotAvailableYet';

/** SPEC §2, 'Data Upload'. */
export default function UploadRoute() {
  return (
    <AdminOnly>
      <NotAvailableYet title="Data Upload" />
    </AdminOnly>
  );
}
