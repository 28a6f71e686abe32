// Every text of the built-in pages, keyed by message id, in English and French.
// Internal to kitgate; the engine picks a table with `resolveMessages` and passes it to the pages.

/** Languages with a complete built-in table. */
export type Locale = 'en' | 'fr';

const en: Record<string, string> = {
	'signin.title': 'Sign in',
	'signin.with': 'Sign in with {provider}',
	'signin.or': 'or',
	'signin.email.label': 'Email address',
	'signin.email.placeholder': 'you@example.com',
	'signin.passkey.noscript':
		'Passkeys need JavaScript. Turn it on in your browser, or choose another way to sign in.',
	'signin.passkey.unsupported':
		'This browser cannot use passkeys here. Update it, or choose another way to sign in.',
	'signin.error.OAuthSignin': 'We could not start signing you in with this provider. Please try again.',
	'signin.error.OAuthCallbackError':
		'The provider did not complete the sign in. Please try again, or choose another way to sign in.',
	'signin.error.InvalidCheck': 'The sign in could not be verified. Please start again.',
	'signin.error.CallbackRouteError': 'Something went wrong while finishing the sign in. Please try again.',
	'signin.error.OAuthAccountNotLinked':
		'To confirm your identity, sign in with the same account you used originally.',
	'signin.error.EmailSignin':
		'We could not send a sign in link. Check that you entered one valid email address and try again.',
	'signin.error.CredentialsSignin': 'Sign in failed. Check the details you provided are correct.',
	'signin.error.MissingCSRF': 'Your sign in form expired. Please try again.',
	'signin.error.SessionTokenError': 'Your session could not be read. Please sign in again.',
	'signin.error.JWTSessionError': 'Your session could not be read. Please sign in again.',
	'signin.error.AccessDenied': 'You do not have permission to sign in with this account.',
	'signin.error.Verification': 'The sign in link is no longer valid. Please request a new one.',
	'signin.error.InvalidProvider': 'This way of signing in is not available. Please choose another.',
	'signin.error.WebAuthnVerificationError': 'Your passkey could not be verified. Please try again, or choose another way to sign in.',
	'signin.error.Default': 'Unable to sign in. Please try again.',
	'signout.title': 'Sign out',
	'signout.confirm': 'Are you sure you want to sign out?',
	'signout.button': 'Sign out',
	'verify.title': 'Check your email',
	'verify.body': 'A sign in link has been sent to your email address.',
	'verify.expires': 'The link expires in {duration} and works only once.',
	'verify.spam': 'No email? Check your spam folder, or go back and ask for a new link.',
	'confirm.title': 'Confirm sign in',
	'confirm.body': 'Sign in to {host} as {email}?',
	'confirm.button': 'Sign in',
	'confirm.hint': 'If you did not ask for this link, close this page: nothing happens until you press the button.',
	'email.subject': 'Sign in to {host}',
	'email.title': 'Sign in to {host}',
	'email.intro': 'Press the button below to sign in to {host}.',
	'email.textIntro': 'Open this link to sign in to {host}:',
	'email.button': 'Sign in',
	'email.link': 'Or open this link in your browser:',
	'email.expires': 'The link expires in {duration} and works only once.',
	'email.ignore': 'If you did not ask to sign in, you can ignore this email: nobody can sign in without the link.',
	'error.code': 'Error code: {code}',
	'error.Configuration.title': 'There is a problem with the server configuration',
	'error.Configuration.body': 'Check the server logs for more information.',
	'error.AccessDenied.title': 'Access denied',
	'error.AccessDenied.body': 'You do not have permission to sign in.',
	'error.Verification.title': 'Unable to sign in',
	'error.Verification.body':
		'This sign in link cannot be used. It may have been used already, it may have expired, or it may be for another email address. Ask for a new link to sign in.',
	'error.UntrustedHost.title': 'This site is not trusted',
	'error.UntrustedHost.body':
		'The server does not accept requests for this host name. The site owner needs to trust it in the configuration.',
	'error.MissingAdapterMethod.title': 'There is a problem with the server configuration',
	'error.MissingAdapterMethod.body':
		'The database adapter lacks a method this sign in needs. Check the server logs for more information.',
	'error.MissingCSRF.title': 'Your form expired',
	'error.MissingCSRF.body': 'The security token of the form was missing or out of date. Please try again.',
	'error.InvalidProvider.title': 'Unknown sign in method',
	'error.InvalidProvider.body': 'This way of signing in does not exist or cannot be used here.',
	'error.UnknownAction.title': 'Page not found',
	'error.UnknownAction.body': 'There is nothing at this address.',
	'error.InvalidCallbackUrl.title': 'Unable to sign in',
	'error.InvalidCallbackUrl.body': 'The address to return to after signing in is not allowed.',
	'error.InvalidRequest.title': 'Invalid request',
	'error.InvalidRequest.body': 'The request was incomplete or malformed. Please try again.',
	'error.Default.title': 'Error',
	'error.Default.body': 'Something went wrong.',
	'link.signin': 'Sign in',
	'link.home': 'Back to home'
};

const fr: Record<string, string> = {
	'signin.title': 'Connexion',
	'signin.with': 'Se connecter avec {provider}',
	'signin.or': 'ou',
	'signin.email.label': 'Adresse e-mail',
	'signin.email.placeholder': 'vous@exemple.fr',
	'signin.passkey.noscript':
		'Les clés d’accès nécessitent JavaScript. Activez-le dans votre navigateur ou choisissez un autre moyen de connexion.',
	'signin.passkey.unsupported':
		'Ce navigateur ne peut pas utiliser de clé d’accès ici. Mettez-le à jour ou choisissez un autre moyen de connexion.',
	'signin.error.OAuthSignin': 'Impossible de lancer la connexion avec ce fournisseur. Veuillez réessayer.',
	'signin.error.OAuthCallbackError':
		'Le fournisseur n’a pas terminé la connexion. Réessayez ou choisissez un autre moyen de connexion.',
	'signin.error.InvalidCheck': 'La connexion n’a pas pu être vérifiée. Veuillez recommencer.',
	'signin.error.CallbackRouteError': 'Un problème est survenu à la fin de la connexion. Veuillez réessayer.',
	'signin.error.OAuthAccountNotLinked':
		'Pour confirmer votre identité, connectez-vous avec le compte que vous avez utilisé la première fois.',
	'signin.error.EmailSignin':
		'Nous n’avons pas pu envoyer de lien de connexion. Vérifiez que vous avez saisi une seule adresse e-mail valide, puis réessayez.',
	'signin.error.CredentialsSignin': 'La connexion a échoué. Vérifiez que les informations saisies sont correctes.',
	'signin.error.MissingCSRF': 'Le formulaire de connexion a expiré. Veuillez réessayer.',
	'signin.error.SessionTokenError': 'Votre session n’a pas pu être lue. Veuillez vous reconnecter.',
	'signin.error.JWTSessionError': 'Votre session n’a pas pu être lue. Veuillez vous reconnecter.',
	'signin.error.AccessDenied': 'Vous n’êtes pas autorisé à vous connecter avec ce compte.',
	'signin.error.Verification': 'Le lien de connexion n’est plus valide. Demandez-en un nouveau.',
	'signin.error.InvalidProvider': 'Ce moyen de connexion n’est pas disponible. Veuillez en choisir un autre.',
	'signin.error.WebAuthnVerificationError': 'Votre clé d’accès n’a pas pu être vérifiée. Réessayez ou choisissez un autre moyen de connexion.',
	'signin.error.Default': 'Connexion impossible. Veuillez réessayer.',
	'signout.title': 'Déconnexion',
	'signout.confirm': 'Voulez-vous vraiment vous déconnecter ?',
	'signout.button': 'Se déconnecter',
	'verify.title': 'Consultez vos e-mails',
	'verify.body': 'Un lien de connexion a été envoyé à votre adresse e-mail.',
	'verify.expires': 'Le lien expire dans {duration} et ne fonctionne qu’une seule fois.',
	'verify.spam': 'Pas d’e-mail ? Regardez dans vos courriers indésirables, ou revenez en arrière pour demander un nouveau lien.',
	'confirm.title': 'Confirmer la connexion',
	'confirm.body': 'Se connecter à {host} en tant que {email} ?',
	'confirm.button': 'Se connecter',
	'confirm.hint':
		'Si vous n’avez pas demandé ce lien, fermez cette page : rien ne se passe tant que vous n’appuyez pas sur le bouton.',
	'email.subject': 'Connexion à {host}',
	'email.title': 'Connexion à {host}',
	'email.intro': 'Appuyez sur le bouton ci-dessous pour vous connecter à {host}.',
	'email.textIntro': 'Ouvrez ce lien pour vous connecter à {host} :',
	'email.button': 'Se connecter',
	'email.link': 'Ou ouvrez ce lien dans votre navigateur :',
	'email.expires': 'Le lien expire dans {duration} et ne fonctionne qu’une seule fois.',
	'email.ignore':
		'Si vous n’avez pas demandé à vous connecter, ignorez cet e-mail : personne ne peut se connecter sans ce lien.',
	'error.code': 'Code d’erreur : {code}',
	'error.Configuration.title': 'La configuration du serveur pose problème',
	'error.Configuration.body': 'Consultez les journaux du serveur pour en savoir plus.',
	'error.AccessDenied.title': 'Accès refusé',
	'error.AccessDenied.body': 'Vous n’êtes pas autorisé à vous connecter.',
	'error.Verification.title': 'Connexion impossible',
	'error.Verification.body':
		'Ce lien de connexion ne peut pas être utilisé. Il a peut-être déjà servi, il a peut-être expiré, ou il concerne une autre adresse e-mail. Demandez un nouveau lien pour vous connecter.',
	'error.UntrustedHost.title': 'Ce site n’est pas reconnu',
	'error.UntrustedHost.body':
		'Le serveur n’accepte pas les requêtes pour ce nom d’hôte. Le responsable du site doit l’autoriser dans la configuration.',
	'error.MissingAdapterMethod.title': 'La configuration du serveur pose problème',
	'error.MissingAdapterMethod.body':
		'L’adaptateur de base de données ne fournit pas une méthode nécessaire à cette connexion. Consultez les journaux du serveur pour en savoir plus.',
	'error.MissingCSRF.title': 'Le formulaire a expiré',
	'error.MissingCSRF.body': 'Le jeton de sécurité du formulaire manquait ou n’était plus à jour. Veuillez réessayer.',
	'error.InvalidProvider.title': 'Moyen de connexion inconnu',
	'error.InvalidProvider.body': 'Ce moyen de connexion n’existe pas ou ne peut pas être utilisé ici.',
	'error.UnknownAction.title': 'Page introuvable',
	'error.UnknownAction.body': 'Il n’y a rien à cette adresse.',
	'error.InvalidCallbackUrl.title': 'Connexion impossible',
	'error.InvalidCallbackUrl.body': 'L’adresse de retour après la connexion n’est pas autorisée.',
	'error.InvalidRequest.title': 'Requête invalide',
	'error.InvalidRequest.body': 'La requête était incomplète ou mal formée. Veuillez réessayer.',
	'error.Default.title': 'Erreur',
	'error.Default.body': 'Un problème est survenu.',
	'link.signin': 'Se connecter',
	'link.home': 'Retour à l’accueil'
};

/** The built-in message tables. Every language has every English key (checked by tests). */
export const messages: Record<Locale, Record<string, string>> = { en, fr };

/**
 * Error types the error page lets the user retry (it shows a "Sign in" link for them). The
 * others are problems a new attempt will not fix.
 */
export const retryableErrors: ReadonlySet<string> = new Set([
	'AccessDenied',
	'Verification',
	'MissingCSRF',
	'InvalidProvider',
	'InvalidCallbackUrl',
	'InvalidRequest',
	'Default'
]);

/**
 * The message table for `locale` (a language tag such as `fr-CA`; unknown or missing gives
 * English), with `overrides` on top. English fills any key the chosen table lacks.
 *
 * @example resolveMessages('fr', { 'signin.title': 'Bienvenue' })['signin.or'] // 'ou'
 */
export function resolveMessages(locale?: string, overrides?: Record<string, string>): Record<string, string> {
	return { ...en, ...messages[localeOf(locale)], ...overrides };
}

/** The built-in locale for a language tag (`fr-CA` → `fr`), English when there is none. */
export function localeOf(tag?: string): Locale {
	const language = tag?.trim().toLowerCase().split(/[-_]/)[0];
	return language && Object.hasOwn(messages, language) ? (language as Locale) : 'en';
}

/**
 * Replaces `{name}` placeholders with `values.name`; unknown placeholders are left as written.
 *
 * @example format('Sign in with {provider}', { provider: 'GitHub' }) // 'Sign in with GitHub'
 */
export function format(template: string, values: Record<string, string> = {}): string {
	return template.replace(/\{(\w+)\}/g, (placeholder, name: string) =>
		Object.hasOwn(values, name) ? values[name] : placeholder
	);
}

/**
 * The text with id `id` from `table`, formatted with `values`; the id itself if it is missing.
 *
 * @example text(messages.en, 'signin.with', { provider: 'GitHub' })
 */
export function text(table: Record<string, string>, id: string, values?: Record<string, string>): string {
	return format(table[id] ?? en[id] ?? id, values);
}

/**
 * Title and body ids of the error page for `type`, falling back to `Default` for types
 * without their own texts.
 *
 * @example errorMessageIds(messages.en, 'Nope') // { title: 'error.Default.title', body: 'error.Default.body' }
 */
export function errorMessageIds(table: Record<string, string>, type: string): { title: string; body: string } {
	const known = Object.hasOwn(table, `error.${type}.title`) || Object.hasOwn(en, `error.${type}.title`);
	const key = known ? type : 'Default';
	return { title: `error.${key}.title`, body: `error.${key}.body` };
}

/**
 * The id of the sign-in page alert for error type `type` (`signin.error.Default` if it has none).
 *
 * @example signInErrorId(messages.en, 'CredentialsSignin') // 'signin.error.CredentialsSignin'
 */
export function signInErrorId(table: Record<string, string>, type: string): string {
	const id = `signin.error.${type}`;
	return Object.hasOwn(table, id) || Object.hasOwn(en, id) ? id : 'signin.error.Default';
}
