import { useAuth } from '../../auth/SessionProvider';
import { NotAvailableYet } from '../../components/NotAvailableYet';

/** SPEC §2, 'Risk Review': reviewers get 'My Assigned Risks', administrators the review queue. */
export default function RiskReviewRoute() {
  const auth = useAuth();
  const isReviewer = auth.status === 'signedIn' && auth.viewer.role === 'reviewer';
  return <NotAvailableYet title={isReviewer ? 'My Assigned Risks' : 'Risk Review'} />;
}
