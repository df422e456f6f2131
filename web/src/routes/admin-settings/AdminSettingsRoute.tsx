import { NotAvailableYet } from '../../components/NotAvailableYet';

/** SPEC §2, 'Admin Settings'. */
export default function AdminSettingsRoute() {
  return <NotAvailableYet title="Admin Settings" />;
}
