import { AdminOnly } from '../../components/AccessGate';
import { NotAvailableYet } from '../../components/NotAvailableYet';

/** SPEC §2, 'User Management'. */
export default function UsersRoute() {
  return (
    <AdminOnly>
      <NotAvailableYet title="User Management" />
    </AdminOnly>
  );
}
