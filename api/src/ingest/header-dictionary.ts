// The header dictionary: every column of the user-level and role-level Access
// Risk Analysis exports (SAP GRC), in English and French, as the reports and
// their spreadsheet downloads write them (full names, SAP's abbreviations,
// older release names, technical names). Data only: headers.ts normalises
// these (case, accents, spaces and punctuation are ignored, so 'Rôle/Profil',
// 'ROLE_PROFIL' and 'role profil' are one entry) and maps a file's headers
// with them. ARCHITECTURE.md's import table is the floor; add a variant here,
// with its case in api/test/uploads/header-dictionary.test.ts.

export const HEADER_DICTIONARY = {
  userId: ['User ID', 'User Id', 'UserID', 'User', 'User Name ID', 'BNAME', 'ID utilisateur', 'ID util.', 'Utilisateur', "ID d'utilisateur"],
  userName: ['User Name', 'Username', 'Full Name', 'User Full Name', 'Nom utilisateur', "Nom d'utilisateur", 'Nom util.', 'Nom complet', "Nom complet de l'utilisateur"],
  userGroup: ['User Group', 'Usr Grp', 'User Grp', 'Groupe utilisateur', 'Groupe utilisateurs', "Groupe d'utilisateurs", 'Groupe util.', 'Grpe util.'],
  accessRiskId: ['Access Risk ID', 'Access Risk', 'Risk ID', 'Risk', "ID de risque d'accès", 'ID risque accès', "ID du risque d'accès", "Risque d'accès", 'ID risque', 'ID de risque'],
  riskDescription: ['Risk Description', 'Risk Desc.', 'Access Risk Description', 'Description du risque', 'Description risque', 'Description de risque', "Description du risque d'accès"],
  riskLevel: ['Risk Level', 'Risk Lvl', 'Level', 'Niveau du risque', 'Niveau de risque', 'Niveau risque', 'Niv. risque', 'Criticité'],
  riskType: ['Risk Type', 'Type de risque', 'Type risque'],
  ruleId: ['Rule ID', 'Rule', 'ID de règle', 'ID règle', 'Règle'],
  orgRuleId: ['Org Rule ID', 'Org. Rule ID', 'Organizational Rule ID', 'Org Rule', 'ID règle organ.', 'ID règle org.', 'ID de règle organ.', 'ID de règle organisationnelle', 'ID règle organisationnelle'],
  orgLevel: ['Org Level', 'Org. Level', 'Organization Level', 'Organizational Level', 'Niveau org.', 'Niveau organ.', 'Niveau organisationnel'],
  orgValue: ['Org Value', 'Org. Value', 'Organization Value', 'Organizational Value', 'Valeur org.', 'Valeur organ.', 'Valeur organisationnelle'],
  businessProcess: ['Business Process', 'Bus. Process', 'Business Process ID', 'BP', 'Processus de gestion', 'Processus métier', 'Processus', 'Process. gestion'],
  businessProcessDescription: ['Business Process Description', 'Business Process Desc.', 'Bus. Process Desc.', 'Description processus de gestion', 'Description processus métier', 'Description du processus de gestion', 'Description du processus métier', 'Description de processus de gestion', 'Descr. processus gestion'],
  function: ['Function', 'Function ID', 'Fonction', 'ID fonction', 'ID de fonction'],
  functionDescription: ['Function Description', 'Function Desc.', 'Func. Desc.', 'Description fonction', 'Description de fonction', 'Description de la fonction', 'Descr. fonction'],
  system: ['System', 'System ID', 'Connector', 'Système', 'Syst.', 'Connecteur', 'ID système'],
  action: ['Action', 'Transaction', 'TCode', 'Action ID', 'ID action', "ID d'action"],
  actionDescription: ['Action Description', 'Action Desc.', 'Transaction Description', "Description de l'action", 'Description action', "Description d'action", 'Descr. action'],
  resource: ['Resource', 'Permission', 'Authorization Object', 'Ressource', 'Autorisation', "Objet d'autorisation"],
  resourceDescription: ['Resource Description', 'Resource Desc.', 'Permission Description', 'Description ressource', 'Description de ressource', 'Description de la ressource', 'Descr. ressource'],
  resourceExtn: ['Resource Extn', 'Resource Extension', 'Resource Ext.', 'Field', 'Ressource externe', 'Extension de ressource', 'Extension ressource', 'Ressource ext.', 'Zone'],
  resourceExtnDesc: ['Resource Extn Desc', 'Resource Extn Description', 'Resource Extension Description', 'Resource Ext. Desc.', 'Description ressource externe', 'Description externe de ressource', 'Description de ressource externe', "Description de l'extension de ressource", 'Description extension ressource'],
  valueFrom: ['Value From', 'From Value', 'Valeur de', 'Valeur à partir de'],
  valueTo: ['Value To', 'To Value', 'Valeur jusq.', "Valeur jusqu'à", 'Valeur à'],
  roleProfile: ['Role/Profile', 'Role Profile', 'Role', 'Role ID', 'Role Name', 'Profile', 'Rôle/Profil', 'Rôle/profil', 'Rôle', 'Profil', 'ID rôle', 'ID de rôle', 'Nom du rôle'],
  roleProfileDescription: ['Role/Profile Description', 'Role Profile Description', 'Role Description', 'Role/Profile Desc.', 'Role Desc.', 'Profile Description', 'Description rôle/profil', 'Description de rôle/profil', 'Description du rôle/profil', 'Description de rôle', 'Description du rôle', 'Description rôle', 'Descr. rôle/profil'],
  compositeBusinessRole: ['Composite/Business Role', 'Composite Business Role', 'User/Composite Role', 'Composite Role', 'Comp. Role', 'Business Role', 'Parent Role', 'Rôle composite', 'Rôle utilisateur/composite', 'Rôle composite/métier', 'Rôle métier', 'Rôle composé', 'Rôle util./composite'],
  compositeRoleDescription: ['Composite Role Description', 'Composite/Business Role Description', 'Composite Role Desc.', 'Business Role Description', 'User/Composite Role Description', 'Description rôle composite', 'Description de rôle composite', 'Description du rôle composite', 'Description rôle utilisateur/composite', 'Description de rôle utilisateur/composite', 'Description rôle métier'],
  mitigationControl: ['Control', 'Control ID', 'Mitigating Control', 'Mitigation Control', 'Mitigating Control ID', 'Contrôle', 'ID contrôle', 'ID de contrôle', "Contrôle d'atténuation", 'Contrôle de compensation'],
  mitigationControlDescription: ['Control Description', 'Control Desc.', 'Mitigating Control Description', 'Mitigation Control Description', 'Description contrôle', 'Description du contrôle', 'Description de contrôle', "Description du contrôle d'atténuation"],
  monitor: ['Monitor', 'Monitor ID', 'Moniteur', 'Surveillant', 'ID moniteur', 'Responsable du contrôle'],
  monitorName: ['Monitor Name', 'Nom du moniteur', 'Nom moniteur', 'Nom du surveillant'],
  shortDescription: ['Short description', 'Short Desc.', 'Short Text', 'Description courte', 'Description synthét.', 'Description synthétique', 'Descr. courte', 'Texte court'],
  executionCount: ['Execution Count', 'Exec. Count', 'Executions', 'Usage Count', 'Number of Executions', "Nombre d'exécutions", "Nbre d'exécutions", 'Comptage des exécutions', 'Comptage exécutions', "Nombre d'exéc."],
  lastExecutedOn: ['Last Executed On', 'Last Executed', 'Last Execution', 'Last Execution Date', 'Last Used On', 'Dernière exécution', 'Dernière exécution le', 'Date de dernière exécution', 'Exécuté en dernier le', 'Dern. exécution'],
} as const satisfies Record<string, readonly string[]>;

export type CanonicalField = keyof typeof HEADER_DICTIONARY;
